// Stage 22's quantisation on the device, every step queued on the default stream, so that a
// timed call may quantise and multiply in one go: the per-tensor scale, and FP32 to E4M3 in the
// same layout (A) or transposed as it goes (B into B^T, the K-major layout wgmma and cuBLASLt
// read FP8 in). The program hands these to the FP8 bench (common/harness/fp8_gemm_bench.hpp).
#pragma once

#include "common/matrix.hpp"
#include "common/matrix_fp8.hpp"

namespace ladder {

// *scale = the per-tensor scale of src (a device view) as e4m3_scale computes it on the host:
// 448 / largest |x|, 1 for an all-zero src, at most FLT_MAX. NaN elements are passed over (an
// all-NaN src gets 1), and an infinite one makes the scale 0 (the factor 1 / 0, infinity); the
// host version refuses both.
void e4m3_scale_on_device(Matrix src, Fp8Scale* scale);

// dst = src * scale->quantize rounded to E4M3 (nearest, ties to even, saturating at +-448, NaN
// staying NaN), exactly as the host's quantize_e4m3: same shape, and views that keep
// check_view's rule (std::invalid_argument otherwise).
void quantize_e4m3(Matrix src, const Fp8Scale* scale, MatrixFp8 dst);

// The same into dst = src^T (dst is src.width x src.height): B (K x N) into B^T (N x K).
void quantize_e4m3_transposed(Matrix src, const Fp8Scale* scale, MatrixFp8 dst);

}  // namespace ladder
