// Stage 15: stage 12's pipeline on tensor cores (common/sm80/mma_pipeline.cuh).
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The tilings this stage is built with, by name; the first, 128x128_w64x64_s3, is the default.
// In the committed search it is not the fastest: the two-slot ring (_s2) leads at 4096^3 and
// 8192^3, _df beats it at 4096^3 and _g8 at 8192^3; the default was not switched (README.md,
// "Measured results"; results/15_gpu_mma_pipelined/search.md).
std::vector<std::string> mma_pipelined_configs();

// Why the named tiling cannot run on the current device ("" when it can): its ring needs more
// shared memory per block than the GPU allows.
std::string mma_pipelined_unfit_reason(const std::string& config);

// c = a * b on device views with the named tiling, any sizes and strides; returns the path it
// took (sixteen_byte_path of a and b). Throws as stage 14's launcher does, and UsageError for
// a tiling too large for this GPU.
OperandPath launch_gemm_mma_pipelined(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                      Matrix c);

}  // namespace ladder
