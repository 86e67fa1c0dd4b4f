#include "08_transpose_padded/kernel.hpp"

#include <stdexcept>

#include "common/cuda_check.hpp"
#include "common/grid.hpp"
#include "common/tile_dispatch.hpp"

namespace ladder {
namespace {

template <int TILE, int BLOCK_ROWS>
__global__ void transpose_padded(Matrix in, Matrix out) {
  // One unused float per row: each tile row starts one bank further on (32 banks of 4
  // bytes), so a column read spreads over the banks: conflict-free for TILE 32, 2-way for 16.
  __shared__ float tile[TILE][TILE + 1];

  // Load the block's tile of `in` row by row: a warp reads neighbouring floats of one row.
  const int in_row = blockIdx.y * TILE + threadIdx.y;
  const int in_col = blockIdx.x * TILE + threadIdx.x;
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (in_row + j < in.height && in_col < in.width) {
      tile[threadIdx.y + j][threadIdx.x] = in.get(in_row + j, in_col);
    }
  }
  // Threads read what others stored; edge blocks too, so no thread may return before this.
  __syncthreads();

  // The same tile is a tile of `out` with block indices swapped. threadIdx.x walks along a
  // row of `out` again, so the writes are coalesced; the transposition is in the order the
  // tile is read: a warp reads down a column of it.
  const int out_row = blockIdx.x * TILE + threadIdx.y;
  const int out_col = blockIdx.y * TILE + threadIdx.x;
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (out_row + j < out.height && out_col < out.width) {
      out.set(out_row + j, out_col, tile[threadIdx.x][threadIdx.y + j]);
    }
  }
}

}  // namespace

void launch_transpose_padded(Matrix in, Matrix out, int tile, int block_rows) {
  check_view(in);
  check_view(out);
  if (out.height != in.width || out.width != in.height) {
    throw std::invalid_argument("launch_transpose_padded: out must be in.width x in.height");
  }
  const auto kernel = transpose_layouts(tile, block_rows, [](auto TILE, auto BLOCK_ROWS) {
    return transpose_padded<TILE, BLOCK_ROWS>;
  });
  if (in.empty()) return;
  kernel<<<grid_covering(in.width, in.height, tile, tile), dim3(tile, block_rows)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder
