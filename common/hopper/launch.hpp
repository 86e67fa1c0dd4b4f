// The BF16 Hopper stages' launch path, host side: a stage's table of named variants (the first
// the default), and one launcher that checks the shapes and the GPU, then runs a variant, or
// stage 15's kernel (the fallback) where A or B allow no tensor map.
#pragma once

#include "common/config_table.hpp"
#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// A variant of a stage's kernel by name; `launch` runs it on the TMA path, on checked operands.
using HopperVariant = NamedLaunch<void (*)(MatrixBf16 a, MatrixBf16 b, Matrix c)>;

// Checks c = a * b's shapes and the GPU (mismatched shapes throw std::invalid_argument, a GPU
// other than sm_90 UnsupportedGpuError). Where A or B allow no tensor map, queues the product on
// the fallback, stage 15's kernel, and returns its path; else returns OperandPath::tma and
// queues nothing: the caller launches its own kernel (stage 21, whose kernels take more).
OperandPath fall_back_unless_tma(MatrixBf16 a, MatrixBf16 b, Matrix c);

// c = a * b with `variant`, or the fallback; returns the path taken once the kernel
// is queued; the errors as fall_back_unless_tma's.
OperandPath launch_hopper_variant(const HopperVariant& variant, MatrixBf16 a, MatrixBf16 b,
                                  Matrix c);

}  // namespace ladder
