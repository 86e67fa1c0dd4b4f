// Stage 14: the tensor-core instruction itself. PTX mma.sync m16n8k16 (BF16 in, FP32
// accumulate) fed by ldmatrix from shared slices whose 16-byte chunks are XOR-swizzled so that
// every ldmatrix is conflict-free; block and warp tiling as in stage 11, no pipeline yet.
#pragma once

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/vector_access.hpp"

namespace ladder {

// c = a * b on device views, any sizes and strides; the shared slices swizzled, or not
// (swizzle = false: the ablation whose bank conflicts the notes measure). Returns the path it
// took (sixteen_byte_path of a and b) once the kernel is queued. Mismatched shapes throw
// std::invalid_argument, a GPU older than sm_80 UnsupportedGpuError, launch errors CudaError.
GlobalAccess launch_gemm_mma(MatrixBf16 a, MatrixBf16 b, Matrix c, bool swizzle = true);

}  // namespace ladder
