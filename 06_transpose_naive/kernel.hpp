// Stage 06: the transpose as the definition reads: each thread copies in(r, c) to out(c, r).
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// out = in transposed: out is in.width rows by in.height columns, out(c, r) = in(r, c).
// Blocks cover tile x tile elements with tile x block_rows threads, each thread moving
// tile / block_rows elements: tile 32 or 16, block_rows tile (the article's layout) or
// tile / 4. Throws std::invalid_argument for anything else or mismatched shapes.
void launch_transpose_naive(Matrix in, Matrix out, int tile, int block_rows);

}  // namespace ladder
