// Stage 12: software pipelining (kernel.cu says how).
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The tilings this stage is built with, by name; the first is the one the wave rule keeps for
// problems of two waves or more.
std::vector<std::string> pipelined_configs();

// The tiling "auto" stands for on an m x n product: the one the wave rule predicts fastest
// on a GPU with this many SMs and this much shared memory per block and per SM, or, without
// the last three, on the current device.
std::string pipelined_config_for(int m, int n, int multiprocessors, int shared_bytes_per_block,
                                 int shared_bytes_per_sm);
std::string pipelined_config_for(int m, int n);

// The ablations: the default tiling with one supporting detail of the pipeline turned off,
// by name; the first, "none", turns nothing off.
std::vector<std::string> pipelined_ablations();

// Why the named tiling cannot run on the current device, or "" when it can: its ring needs
// more shared memory per block than the GPU allows (the 4-stage 128x128x16 tilings need
// 66,560 bytes, more than sm_75's 64 KB).
std::string pipelined_unfit_reason(const std::string& config);

// c = a * b on device views with the named tiling ("auto": pipelined_config_for), any sizes
// and strides. Returns the path it took, once the kernel is queued: 128-bit copies of B and
// stores of C when B and C allow float4, else 4-byte ones. An unknown tiling or mismatched
// shapes throw std::invalid_argument, a tiling too large for this GPU UsageError, launch
// errors CudaError.
OperandPath launch_gemm_pipelined(const std::string& config, Matrix a, Matrix b, Matrix c);

// c = a * b with the default tiling and the named ablation (pipelined_ablations).
OperandPath launch_gemm_pipelined_ablation(const std::string& ablation, Matrix a, Matrix b,
                                           Matrix c);

}  // namespace ladder
