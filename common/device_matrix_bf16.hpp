// The BF16 operands of Part 4 in GPU memory, and the two conversions between them and FP32
// matrices: rounding (how the programs make BF16 inputs from their FP32 ones) and widening
// (exact, how the checks see the rounded values).
#pragma once

#include "common/device_memory.hpp"
#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"

namespace ladder {

// DeviceMatrix for BF16 elements (0xFFFF, the poison, is a BF16 NaN: all exponent bits set, a
// non-zero fraction).
using DeviceMatrixBf16 = DeviceElements<MatrixBf16>;

// dst = src rounded to the nearest BF16, ties to even (__float2bfloat16_rn): NaN stays NaN,
// infinities stay, floats beyond the largest BF16 become infinities. On the device, for
// device views; throws std::invalid_argument unless both have the same shape.
void round_to_bf16(Matrix src, MatrixBf16 dst);

// dst = src in FP32, exactly (every BF16 value is a float). Same contract as round_to_bf16.
void widen_to_float(MatrixBf16 src, Matrix dst);

}  // namespace ladder
