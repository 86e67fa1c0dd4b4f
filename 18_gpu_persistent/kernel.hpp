// Stage 18: persistent blocks. Instead of one block per tile of C, as many blocks as the SMs
// hold at once, each looping over tiles; they take the tiles in an order that keeps the slices
// they read in L2, and in even rounds. A tile's store goes out through TMA while the block
// already multiplies its next tile. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants this stage is built with, by name; the first is the default, each other one
// turns one of its ideas off (the ablations).
std::vector<std::string> persistent_configs();

// c = a * b on device views with the named variant, any sizes and strides; the path and the
// errors as launch_gemm_tma_wgmma's. An unknown variant throws std::invalid_argument.
OperandPath launch_gemm_persistent(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c);

}  // namespace ladder
