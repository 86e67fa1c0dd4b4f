// Stage 13: tensor cores through WMMA. Stage 04/11's shared-memory tiling, with the inner
// product done by nvcuda::wmma fragments: 16x16x16 BF16 tiles, FP32 accumulators.
#pragma once

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/vector_access.hpp"

namespace ladder {

// c = a * b on device views (BF16 operands, FP32 result), any sizes and strides. Returns the
// path it took (sixteen_byte_path of a and b: 16-byte copies, or element by element) once
// the kernel is queued. Mismatched shapes throw std::invalid_argument, a GPU older than sm_80
// UnsupportedGpuError, launch errors CudaError.
GlobalAccess launch_gemm_wmma(MatrixBf16 a, MatrixBf16 b, Matrix c);

}  // namespace ladder
