// Stage 20's default, the product from B as the user gives it (tf32_swapped.cu), on operands
// already checked: shapes that match, nothing empty, A and B with 16-byte-aligned rows
// (allows_float4). Its tiles are 128 columns of C by 256 rows: in pairs (clusters of two),
// alone, or by size, in pairs only past one wave, as stage 19's default.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

void launch_tf32_swapped_by_size(Matrix a, Matrix b, Matrix c);
void launch_tf32_swapped_pairs(Matrix a, Matrix b, Matrix c);
void launch_tf32_swapped_alone(Matrix a, Matrix b, Matrix c);

}  // namespace ladder
