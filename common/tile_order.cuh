// The order in which blocks (stages 12 and 15) or clusters of blocks (stage 19) take their
// tiles of C: in groups of a few tile rows, walking down a group's column before moving right.
// The blocks running at the same time then read the same few slices of A and of B, which stay
// in L2; row order (groups of one row) reads every slice of B once per row of tiles.
#pragma once

namespace ladder {

struct TileOrigin {
  int row;  // of the block's first element in C
  int col;
};

// Where the block that takes tile t starts, in a grid of tile_rows x tile_cols tiles taken in
// groups of group_rows tile rows (the last group may have fewer). A tile is one block of
// block_m x block_n elements, or, in clusters stacked along M (stage 19), blocks_per_tile of
// them one above the other, of which the caller is number `block`. Index: int, or unsigned for
// blockIdx.x as it is (stage 12), whose quotient and remainder are then taken unsigned.
template <class Index>
__device__ inline TileOrigin grouped_tile_origin(Index t, int tile_rows, int tile_cols,
                                                 int group_rows, int block_m, int block_n,
                                                 int blocks_per_tile = 1, int block = 0) {
  const int per_group = group_rows * tile_cols;
  const int first_row = static_cast<int>(t / per_group) * group_rows;
  const int rows = min(tile_rows - first_row, group_rows);
  const int in_group = t % per_group;
  return {((first_row + in_group % rows) * blocks_per_tile + block) * block_m,
          in_group / rows * block_n};
}

}  // namespace ladder
