// Stage 19: clusters. Stage 18's persistent blocks, in clusters of two stacked along M that
// share each slice of B through TMA multicast; the default picks per problem whether clusters
// pay and whether 192-wide tiles fill the SMs better. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants this stage is built with, by name; the first is the default, the others fix
// one tiling each.
std::vector<std::string> cluster_configs();

// c = a * b on device views with the named variant, any sizes and strides; the path and the
// errors as launch_gemm_tma_wgmma's. An unknown variant throws std::invalid_argument.
OperandPath launch_gemm_clusters(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                 Matrix c);

}  // namespace ladder
