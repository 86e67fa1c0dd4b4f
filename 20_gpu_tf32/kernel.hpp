// Stage 20: TF32, the persistent kernel for FP32 users. The tensor cores read each operand's
// float as TF32 (its top 19 bits: sign, 8 exponent bits, 10 mantissa bits) and accumulate in
// FP32. wgmma reads TF32 from shared memory only K-major, and B is N-major: the default
// computes C^T = B^T A^T, with B's slices read into registers (tf32_swapped.cu); the ablation
// multiplies A by a B^T the caller has written. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants on B as given, by name, the first the default: the swapped product, with the
// per-size cluster rule of stage 19's default.
std::vector<std::string> tf32_configs();

// c = a * b on device views, any sizes and strides, by the named variant. An operand whose rows
// TMA cannot read (not 16-byte aligned) is first copied, inside the call, into rows of whole
// 128-byte lines: the path is then OperandPath::tma_after_copy, else tma. An unknown variant or
// mismatched shapes throw std::invalid_argument, a GPU other than sm_90 UnsupportedGpuError.
OperandPath launch_gemm_tf32(const std::string& config, Matrix a, Matrix b, Matrix c);

// The swap's ablation: the persistent kernel on A and B^T (n x k), both K-major, which the
// caller has written into b_t. Its rows must be 16-byte aligned, and whole 128-byte lines are
// fastest (stage 16's notes, row alignment): transposed_b_stride(k) for a B^T of k columns.
// The first variant is their per-size rule. A is copied as above where TMA cannot read it;
// b_t whose rows TMA cannot read, an unknown variant or mismatched shapes throw
// std::invalid_argument.
std::vector<std::string> tf32_transposing_configs();
int transposed_b_stride(int k);
OperandPath launch_gemm_tf32_transposed(const std::string& config, Matrix a, Matrix b_t,
                                        Matrix c);

}  // namespace ladder
