// Stage 08: stage 07's shared-memory transpose with one float of padding per tile row, so
// that reading a column of the tile no longer hits one shared-memory bank again and again.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// out = in transposed: out is in.width rows by in.height columns, out(c, r) = in(r, c).
// Blocks cover tile x tile elements with tile x block_rows threads, each thread moving
// tile / block_rows elements: tile 32 or 16, block_rows tile (the article's layout) or
// tile / 4. Throws std::invalid_argument for anything else or mismatched shapes.
void launch_transpose_padded(Matrix in, Matrix out, int tile, int block_rows);

}  // namespace ladder
