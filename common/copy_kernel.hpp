// The bandwidth yardstick of the transpose stages: a copy with their launch shape.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// out = in (same shape), in tile x tile blocks of tile x block_rows threads: each thread
// moves tile / block_rows elements, as the transposes do. tile 16 or 32; block_rows
// tile or tile / 4.
void launch_tiled_copy(Matrix in, Matrix out, int tile, int block_rows);

}  // namespace ladder
