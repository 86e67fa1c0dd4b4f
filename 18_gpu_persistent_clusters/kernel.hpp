// Stage 18: persistent blocks and clusters. One block per SM loops over output tiles in an order
// that reuses L2; clusters of two blocks share each slice of B through TMA multicast; a tile's
// store overlaps the loads of the block's next tile. sm_90a only. FP32 users get TF32: the same
// design on C^T = B^T A^T with B's slices in registers (tf32_swapped.cu), or, as the ablation,
// this kernel on A and B^T.
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

// c = a * b on device views with the named variant, any sizes and strides; the path and the
// errors as launch_gemm_tma_wgmma's. An unknown variant throws std::invalid_argument.
OperandPath launch_gemm_persistent(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c);

// The TF32 variant: FP32 A, B and C; the tensor cores read each operand's float as TF32 (its
// top 19 bits: sign, 8 exponent bits, 10 mantissa bits) and accumulate in FP32. Its variants
// by name, the first the default: C^T = B^T A^T, B's slices read into registers
// (tf32_swapped.cu), with the per-size cluster rule of the BF16 default.
std::vector<std::string> persistent_tf32_configs();

// c = a * b on device views, any sizes and strides, by the named variant. An operand whose rows
// TMA cannot read (not 16-byte aligned) is first copied, inside the call, into rows of whole
// 128-byte lines: the path is then OperandPath::tma_after_copy, else tma. An unknown variant or
// mismatched shapes throw std::invalid_argument, a GPU other than sm_90 UnsupportedGpuError.
OperandPath launch_gemm_persistent_tf32(const std::string& config, Matrix a, Matrix b,
                                        Matrix c);

// wgmma reads TF32 operands from shared memory only K-major. The variants named here (the
// ablation of the default) multiply A by B^T (n x k), which the caller has written into b_t:
// its rows must be 16-byte aligned, and whole 128-byte lines are fastest (stage 16's notes,
// row alignment): transposed_b_stride(k) for a B^T of k columns. The first is their per-size
// rule. A is copied as above where TMA cannot read it; b_t whose rows TMA cannot read, an
// unknown variant or mismatched shapes throw std::invalid_argument.
std::vector<std::string> persistent_tf32_transposing_configs();
int transposed_b_stride(int k);
OperandPath launch_gemm_persistent_tf32_transposed(const std::string& config, Matrix a,
                                                   Matrix b_t, Matrix c);

}  // namespace ladder
