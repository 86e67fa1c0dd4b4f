// Stage 10: stage 09's 2D register tiles, with global memory moved 16 bytes at a time and A's
// slice stored transposed in shared memory, so both operands arrive as 128-bit shared loads.
#pragma once

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// c = a * b on device views (c is a.height x b.width, a.width == b.height), any sizes and
// strides, with slices of slice_depth (BK: 16, or 8 as stage 09) columns of A. Returns the
// path it took, once the kernel is queued: 128-bit when A, B and C all allow float4
// (allows_float4), else 4-byte global accesses with the same shared layout and loop. Launch
// errors throw CudaError, mismatched shapes or another depth std::invalid_argument.
OperandPath launch_gemm_vectorized(Matrix a, Matrix b, Matrix c, int slice_depth = 16);

}  // namespace ladder
