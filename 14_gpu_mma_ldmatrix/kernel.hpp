// Stage 14: the tensor-core instruction itself, PTX mma.sync m16n8k16, fed by ldmatrix from
// XOR-swizzled shared slices (common/sm80/mma_tile.cuh); no pipeline yet.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The shared layouts this stage is built with, by name: the default, "swizzled", and
// "unswizzled", the ablation whose bank conflicts the notes measure.
std::vector<std::string> mma_configs();

// c = a * b on device views with the named layout, any sizes and strides; returns the path it
// took (sixteen_byte_path of a and b) once the kernel is queued. An unknown layout or mismatched
// shapes throw std::invalid_argument, a GPU older than sm_80 UnsupportedGpuError, launch errors
// CudaError.
OperandPath launch_gemm_mma(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c);

}  // namespace ladder
