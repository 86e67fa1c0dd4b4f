// Stage 17: warp specialisation. One producer warpgroup only issues TMA copies; two consumer
// warpgroups only multiply; full and empty mbarriers per ring slot hand slots back and forth,
// and setmaxnreg moves registers from the producer to the consumers. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants this stage is built with, by name; the first is the default, each other one
// changes one thing (the ablations).
std::vector<std::string> warp_specialized_configs();

// c = a * b on device views with the named variant, any sizes and strides; the path and the
// errors as launch_gemm_tma_wgmma's. An unknown variant throws std::invalid_argument.
OperandPath launch_gemm_warp_specialized(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                         Matrix c);

}  // namespace ladder
