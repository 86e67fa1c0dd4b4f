// What a launcher computes before a <<<grid, block>>>: grid sizes that cover a matrix with
// tiles, rounded up so edge tiles exist.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "common/errors.hpp"
#include "common/matrix.hpp"

namespace ladder {

// Enough blocks of tile_x x tile_y elements to cover x_extent x y_extent (partial tiles
// included). CUDA allows 65535 blocks in y; past that the problem cannot launch as one
// grid, which is a usage limit of this tutorial's kernels, not a crash.
inline dim3 grid_covering(int x_extent, int y_extent, int tile_x, int tile_y) {
  const unsigned blocks_x = (static_cast<unsigned>(x_extent) + tile_x - 1) / tile_x;
  const unsigned blocks_y = (static_cast<unsigned>(y_extent) + tile_y - 1) / tile_y;
  if (blocks_y > 65535) {
    throw UsageError(std::to_string(y_extent) + " along the grid's y axis needs " +
                     std::to_string(blocks_y) + " blocks of " + std::to_string(tile_y) +
                     "; CUDA allows 65535");
  }
  return dim3(blocks_x, blocks_y);
}

}  // namespace ladder
