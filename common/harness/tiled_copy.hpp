// The ceilings of the transpose stages beside cudaMemcpy: copy kernels with the
// transposes' launch shape, so a transpose is compared with the same access pattern minus
// the transposition.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// out = in (same shape), in tile x tile blocks of tile x block_rows threads: each thread
// moves tile / block_rows elements, as the transposes do. The layouts of
// transpose_layouts (common/tile_dispatch.hpp); std::invalid_argument for any other.
void launch_tiled_copy(Matrix in, Matrix out, int tile, int block_rows);

// The same copy staged through a shared-memory tile with the transposes' barrier: each
// thread stores its elements into the tile, the block waits, and each thread reads back the
// SAME positions and writes them out. Everything a shared-memory transpose pays (the trip
// through shared memory, __syncthreads) except the transposition and its bank conflicts.
void launch_shared_copy(Matrix in, Matrix out, int tile, int block_rows);

}  // namespace ladder
