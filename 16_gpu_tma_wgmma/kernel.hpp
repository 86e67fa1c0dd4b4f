// Stage 16: Hopper's own path. The tensor memory accelerator (TMA) copies each slice of A and B
// into a ring of shared-memory slots, completing on an mbarrier; a warpgroup's wgmma multiplies
// straight from shared memory. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/vector_access.hpp"

namespace ladder {

// The path stages 16-18 take: GlobalAccess::vector (TMA) when a and b can be described by
// tensor maps, which need 16-byte aligned rows (sixteen_byte_path) and no empty dimension;
// else scalar: the named fallback, stage 15's kernel.
GlobalAccess tma_path(const MatrixBf16& a, const MatrixBf16& b);

// The tilings this stage is built with, by name; the first is the default, the second the
// ablation with stage 15's tile width (128 x 128).
std::vector<std::string> tma_wgmma_configs();

// c = a * b on device views with the named tiling, any sizes and strides; an unknown tiling
// throws std::invalid_argument. Returns the path it took (tma_path) once the kernel is queued.
GlobalAccess launch_gemm_tma_wgmma(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c);

// The same with the default tiling.
// Mismatched shapes throw std::invalid_argument, a GPU other than sm_90 UnsupportedGpuError,
// launch errors CudaError.
GlobalAccess launch_gemm_tma_wgmma(MatrixBf16 a, MatrixBf16 b, Matrix c);

}  // namespace ladder
