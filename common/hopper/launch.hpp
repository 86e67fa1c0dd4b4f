// The BF16 Hopper stages' launcher, host side: it checks the shapes and the GPU, then runs a
// variant from the stage's table, or stage 15's kernel (the fallback) where A or B allow no
// tensor map.
#pragma once

#include "common/config_table.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// A variant of a stage's kernel by name; `launch` runs it on the TMA path, on checked operands.
using HopperVariant = NamedLaunch<void (*)(MatrixBf16 a, MatrixBf16 b, Matrix c)>;

// Checks the shapes (else std::invalid_argument) and the GPU (else UnsupportedGpuError: sm_90
// only). Where A or B allow no tensor map, queues the fallback and returns its path; else
// returns OperandPath::tma and queues nothing: the caller launches its own kernel.
OperandPath fall_back_unless_tma(MatrixBf16 a, MatrixBf16 b, Matrix c);

// c = a * b with `variant`, or the fallback; returns the path taken, the errors as above.
OperandPath launch_hopper_variant(const HopperVariant& variant, MatrixBf16 a, MatrixBf16 b,
                                  Matrix c);

}  // namespace ladder
