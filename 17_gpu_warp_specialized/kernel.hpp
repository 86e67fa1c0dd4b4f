// Stage 17: warp specialisation. One producer warpgroup only issues TMA copies; two consumer
// warpgroups only multiply; full and empty mbarriers per ring slot hand slots back and forth,
// and setmaxnreg moves registers from the producer to the consumers. sm_90a only.
#pragma once

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/vector_access.hpp"

namespace ladder {

// c = a * b on device views, any sizes and strides; the path as launch_gemm_tma_wgmma's.
GlobalAccess launch_gemm_warp_specialized(MatrixBf16 a, MatrixBf16 b, Matrix c);

}  // namespace ladder
