// The TMA tensor map over an E4M3 view (tensor_map.hpp has the BF16 operands' and C's): what
// the FP8 products read A and B^T through.
#pragma once

#include <cuda.h>  // CUtensorMap and the encoding enums only: nothing from libcuda is linked

#include "common/matrix_fp8.hpp"

namespace ladder {

// make_tensor_map_2d (tensor_map.hpp) over an E4M3 view: allows_16_bytes(m) and a box of 16 to
// 128 columns (a multiple of 16) by 1 to 256 rows, or std::invalid_argument.
CUtensorMap make_tensor_map_2d(const MatrixFp8& m, int box_cols, int box_rows);

}  // namespace ladder
