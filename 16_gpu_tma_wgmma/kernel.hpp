// Stage 16: Hopper's own path. The tensor memory accelerator (TMA) copies each slice of A and B
// into a ring of shared-memory slots, completing on an mbarrier; a warpgroup's wgmma multiplies
// straight from shared memory. sm_90a only.
#pragma once

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/vector_access.hpp"

namespace ladder {

// The path stages 16-18 take: GlobalAccess::vector (TMA) when a and b can be described by
// tensor maps, which need 16-byte aligned rows (sixteen_byte_path) and no empty dimension;
// else scalar: the named fallback, stage 15's kernel.
GlobalAccess tma_path(const MatrixBf16& a, const MatrixBf16& b);

// c = a * b on device views, any sizes and strides. Returns the path it took (tma_path) once
// the kernel is queued.
// Mismatched shapes throw std::invalid_argument, a GPU other than sm_90 NoDeviceError, launch
// errors CudaError.
GlobalAccess launch_gemm_tma_wgmma(MatrixBf16 a, MatrixBf16 b, Matrix c);

}  // namespace ladder
