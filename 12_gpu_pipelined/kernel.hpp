// Stage 12: software pipelining (kernel.cu says how).
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The tilings and the ablations (the default tiling, one detail off) by name, defaults first.
std::vector<std::string> pipelined_configs();
std::vector<std::string> pipelined_ablations();

// The tiling "auto" stands for on an m x n product: the wave rule's pick for a GPU with this
// many SMs and this much shared memory per block and per SM, or for the current device.
std::string pipelined_config_for(int m, int n, int multiprocessors, int shared_bytes_per_block,
                                 int shared_bytes_per_sm);
std::string pipelined_config_for(int m, int n);

// Why the tiling's ring does not fit the current device's shared memory per block, or "".
std::string pipelined_unfit_reason(const std::string& config);

// c = a * b, any sizes and strides, with the named tiling ("auto" too) or the default one with
// the named ablation. Returns the path taken once the kernel is queued (128-bit copies of B and
// stores of C where both allow float4). Throws std::invalid_argument for an unknown name or
// mismatched shapes, UsageError for a tiling too large for this GPU, CudaError for a failed launch.
OperandPath launch_gemm_pipelined(const std::string& config, Matrix a, Matrix b, Matrix c);
OperandPath launch_gemm_pipelined_ablation(const std::string& ablation, Matrix a, Matrix b,
                                           Matrix c);

}  // namespace ladder
