// Stage 18: persistent blocks and clusters. One block per SM loops over output tiles in an order
// that reuses L2; clusters of two blocks share each slice of B through TMA multicast; a tile's
// store overlaps the loads of the block's next tile. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/vector_access.hpp"

namespace ladder {

// The variants this stage is built with, by name; the first is the default, the others turn
// one of its ideas off (the ablations) or change the tiling.
std::vector<std::string> persistent_configs();

// c = a * b on device views with the named variant, any sizes and strides; the path as
// launch_gemm_tma_wgmma's. An unknown variant throws std::invalid_argument.
GlobalAccess launch_gemm_persistent(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                    Matrix c);

}  // namespace ladder
