// Stage 20: TF32, the persistent kernel for FP32 users: the default computes C^T = B^T A^T
// from B as given (tf32_swapped.cu), the ablation multiplies A by a B^T the caller has written.
// sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants on B as given, by name, the first the default.
std::vector<std::string> tf32_configs();

// c = a * b on device views, any sizes and strides, by the named variant. An operand whose rows
// TMA cannot read (not 16-byte aligned) is first copied, inside the call, into rows of whole
// 128-byte lines: the path is then OperandPath::tma_after_copy, else tma. An unknown variant or
// mismatched shapes throw std::invalid_argument, a GPU other than sm_90 UnsupportedGpuError.
OperandPath launch_gemm_tf32(const std::string& config, Matrix a, Matrix b, Matrix c);

// The ablation, the first variant the default: A times B^T (n x k), which the caller has
// written into b_t, whose rows must be 16-byte aligned (else std::invalid_argument);
// transposed_b_stride(k) gives whole 128-byte lines, the fastest (stage 16's notes, row
// alignment). Otherwise as launch_gemm_tf32.
std::vector<std::string> tf32_transposing_configs();
int transposed_b_stride(int k);
OperandPath launch_gemm_tf32_transposed(const std::string& config, Matrix a, Matrix b_t, Matrix c);

}  // namespace ladder
