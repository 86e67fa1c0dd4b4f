// Stage 18: persistent blocks and clusters. One block per SM loops over output tiles in an order
// that reuses L2; clusters of two blocks share each slice of B through TMA multicast; a tile's
// store overlaps the loads of the block's next tile. sm_90a only. FP32 users get TF32: the same
// design on C^T = B^T A^T with B's slices in registers (tf32_swapped.cu), or, as the ablation,
// this kernel on A and B^T, B transposed first by stage 08's kernel.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants this stage is built with, by name; the first is the default, the others turn
// one of its ideas off (the ablations) or change the tiling.
std::vector<std::string> persistent_configs();

// The tiling the default (by_size) takes for a C of this size on the current GPU: one of the
// variants' names (128x256_c2_g8, 128x192_c2_g8, 128x256_c1_g8 or 128x192_c1_g8).
std::string persistent_default_tiling(Matrix c);

// c = a * b on device views with the named variant, any sizes and strides; the path and the
// errors as launch_gemm_tma_wgmma's. An unknown variant throws std::invalid_argument.
OperandPath launch_gemm_persistent(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c);

// The TF32 variant: FP32 A, B and C; the tensor cores read each operand's float as TF32 (its
// top 19 bits: sign, 8 exponent bits, 10 mantissa bits) and accumulate in FP32. Its variants
// by name, the first the default: C^T = B^T A^T, B's slices read into registers
// (tf32_swapped.cu), with the per-size cluster rule of the BF16 default.
std::vector<std::string> persistent_tf32_configs();

// wgmma reads TF32 operands from shared memory only K-major. The variants named here (the
// ablation of the default) multiply A by B^T (n x k): B transposed by stage 08's kernel into
// b_t, a workspace the caller owns; the first is their per-size rule. Rows of whole 128-byte
// lines are fastest (stage 16's notes, row alignment): transposed_b_stride(k) for a B^T of k
// columns.
std::vector<std::string> persistent_tf32_transposing_configs();
int transposed_b_stride(int k);

// Stage 08's grid covers B's k rows in tiles of 32, at most 65535 of them: the largest K for
// which the TF32 launcher can transpose B, as the transposing variants always do and the
// swapped ones where B's rows are not 16-byte aligned (larger throws UsageError from the
// transpose). The program takes no larger K for TF32.
inline constexpr int kTf32MaxK = 65535 * 32;

// OperandPath::tma where A allows tensor maps (allows_float4) and nothing is empty, else the
// fallback's own path: stage 12's FP32 kernel on a, b and c (pipelined_path).
OperandPath tf32_path(Matrix a, Matrix b, Matrix c);

// c = a * b on device views, any strides, any sizes up to K = kTf32MaxK: the named variant, or
// the fallback. A transposing variant writes B^T into b_t first, and so does a swapped one
// where B's rows are not 16-byte aligned (it then runs the transposing default). b_t must be
// n x k with 16-byte-aligned rows (transposed_b_stride(k) makes them 128-byte lines). Every
// step is queued on the default stream, so timing the call times the transpose too. Returns
// the path taken (tf32_path); an unknown variant, mismatched shapes or a b_t whose rows TMA
// cannot read throw std::invalid_argument, a GPU other than sm_90 UnsupportedGpuError.
OperandPath launch_gemm_persistent_tf32(const std::string& config, Matrix a, Matrix b,
                                        Matrix b_t, Matrix c);

// The product alone, from a B^T already in b_t (the transpose left out of the time: what
// the transpose costs), by a transposing variant (others throw std::invalid_argument). An
// empty C is no work, K = 0 makes C = 0; otherwise throws std::invalid_argument where A's rows
// are not 16-byte aligned (no tensor map, no fallback).
void launch_gemm_persistent_tf32_transposed(const std::string& config, Matrix a, Matrix b_t,
                                            Matrix c);

}  // namespace ladder
