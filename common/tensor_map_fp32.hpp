// The TMA tensor map over an FP32 view to load from (tensor_map.hpp has the BF16 operands' and
// C's): what the TF32 products read A and B (or B^T) through.
#pragma once

#include <cuda.h>  // CUtensorMap and the encoding enums only: nothing from libcuda is linked

#include "common/matrix.hpp"

namespace ladder {

// make_tensor_map_2d (tensor_map.hpp) over an FP32 view: the 128-byte swizzle on the
// shared-memory side, allows_float4(m) and a box of 4 to 32 columns (a multiple of 4) by 1 to
// 256 rows, or std::invalid_argument.
CUtensorMap make_tensor_map_2d(const Matrix& m, int box_cols, int box_rows);

}  // namespace ladder
