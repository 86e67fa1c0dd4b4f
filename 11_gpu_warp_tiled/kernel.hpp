// Stage 11: warp tiling. Block tile -> warp tile -> thread tile, so each warp's shared-memory
// reads are conflict-free or broadcasts; the tile sizes are template parameters, and a
// parameter search over the candidates below picked the default.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The tilings this stage is built with, by name; the first is the default (the winner of the
// search). Every one is correct for every size; they differ only in speed.
std::vector<std::string> warp_tiled_configs();

// c = a * b on device views with the named tiling, any sizes and strides. Returns the path it
// took, once the kernel is queued (128-bit when A, B and C all allow float4, else scalar). An
// unknown tiling or mismatched shapes throw std::invalid_argument, launch errors CudaError.
OperandPath launch_gemm_warp_tiled(const std::string& config, Matrix a, Matrix b, Matrix c);

}  // namespace ladder
