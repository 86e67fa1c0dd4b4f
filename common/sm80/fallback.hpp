// The path every Hopper launcher takes where A's or B's rows allow no tensor map (rows not
// whole 16 bytes, or a base address off 16 bytes): stage 15's cp.async ring of mma.sync tiles at
// its default tiling, 128 x 128 blocks of 64 x 64 warp tiles and three slots.
#pragma once

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// c = a * b on checked operands (check_gemm_shapes); queues the kernel and returns its path,
// sixteen_byte_path of a and b (the element path on the rows this fallback exists for).
OperandPath launch_gemm_sm80_fallback(MatrixBf16 a, MatrixBf16 b, Matrix c);

}  // namespace ladder
