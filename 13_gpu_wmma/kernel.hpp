// Stage 13: tensor cores through WMMA. Stage 04/11's shared-memory tiling, with the inner
// product done by nvcuda::wmma fragments: 16x16x16 BF16 tiles, FP32 accumulators.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The tilings this stage is built with, by name: one, 128x128x32 (block tile and slice depth).
std::vector<std::string> wmma_configs();

// c = a * b on device views (BF16 operands, FP32 result) with the named tiling, any sizes and
// strides. Returns the path it took (sixteen_byte_path of a and b: 16-byte copies, or element
// by element) once the kernel is queued. An unknown tiling or mismatched shapes throw
// std::invalid_argument, a GPU older than sm_80 UnsupportedGpuError, launch errors CudaError.
OperandPath launch_gemm_wmma(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c);

}  // namespace ladder
