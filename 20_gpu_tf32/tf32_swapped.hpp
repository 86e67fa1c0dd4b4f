// Stage 20's product from B as the user gives it (tf32_swapped.cu): C^T = B^T A^T, with
// B's slices read into registers. The stage's TF32 launcher (kernel.hpp) picks it by variant.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// The swapped tiles: 128 columns of C by 256 rows, in clusters of two (pairs) or alone;
// by_size takes pairs past one wave, as stage 19's default does.
enum class SwappedTiling { by_size, pairs, alone };

// c = a * b with FP32 views read as TF32, on operands already checked: shapes that match,
// nothing empty, A and B with 16-byte-aligned rows (allows_float4). Stores C through TMA where
// allows_tma_store(c), else element by element.
void launch_tf32_swapped(SwappedTiling tiling, Matrix a, Matrix b, Matrix c);

}  // namespace ladder
