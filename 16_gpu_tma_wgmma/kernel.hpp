// Stage 16: Hopper's own path. The tensor memory accelerator (TMA) copies each slice of A and B
// into a ring of shared-memory slots, completing on an mbarrier; a warpgroup's wgmma multiplies
// straight from shared memory. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The tilings this stage is built with, by name; the first is the default, the second the
// ablation with stage 15's tile width (128 x 128).
std::vector<std::string> tma_wgmma_configs();

// c = a * b on device views with the named tiling, any sizes and strides. Returns the path it
// took (common/hopper/launch.hpp) once the kernel is queued. An unknown
// tiling or mismatched shapes throw std::invalid_argument, a GPU other than sm_90
// UnsupportedGpuError, launch errors CudaError.
OperandPath launch_gemm_tma_wgmma(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                  Matrix c);

}  // namespace ladder
