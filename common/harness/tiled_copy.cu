#include "common/harness/tiled_copy.hpp"

#include <stdexcept>

#include "common/cuda_check.hpp"
#include "common/grid.hpp"
#include "common/tile_dispatch.hpp"

namespace ladder {
namespace {

template <int TILE, int BLOCK_ROWS>
__global__ void copy_tiles(Matrix in, Matrix out) {
  constexpr int kPerThread = TILE / BLOCK_ROWS;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int first_row = blockIdx.y * TILE + threadIdx.y;
  // All loads before any store: in and out could alias as far as the compiler knows, so a
  // load-store-load-store loop would keep one load in flight per thread. The transposes
  // stage through shared memory and get this for free; the yardstick must not lag them.
  float values[kPerThread];
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int row = first_row + i * BLOCK_ROWS;
    if (row < in.height && col < in.width) values[i] = in.get(row, col);
  }
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int row = first_row + i * BLOCK_ROWS;
    if (row < in.height && col < in.width) out.set(row, col, values[i]);
  }
}

template <int TILE, int BLOCK_ROWS>
__global__ void copy_through_shared(Matrix in, Matrix out) {
  __shared__ float tile[TILE][TILE];
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int first_row = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (first_row + j < in.height && col < in.width) {
      tile[threadIdx.y + j][threadIdx.x] = in.get(first_row + j, col);
    }
  }
  // The transposes need this barrier because threads read what others stored; here each
  // thread reads back its own elements, but the barrier stays: it is part of the cost.
  __syncthreads();
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (first_row + j < out.height && col < out.width) {
      out.set(first_row + j, col, tile[threadIdx.y + j][threadIdx.x]);
    }
  }
}

// Both views keep the int rule (check_view), and out has in's shape.
void check_copy_views(const Matrix& in, const Matrix& out) {
  check_view(in);
  check_view(out);
  if (in.width != out.width || in.height != out.height) {
    throw std::invalid_argument("a copy needs out of in's shape");
  }
}

}  // namespace

void launch_tiled_copy(Matrix in, Matrix out, int tile, int block_rows) {
  check_copy_views(in, out);
  if (in.empty()) return;
  const auto kernel = transpose_layouts(tile, block_rows, [](auto TILE, auto BLOCK_ROWS) {
    return copy_tiles<TILE, BLOCK_ROWS>;
  });
  kernel<<<grid_covering(in.width, in.height, tile, tile), dim3(tile, block_rows)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

void launch_shared_copy(Matrix in, Matrix out, int tile, int block_rows) {
  check_copy_views(in, out);
  if (in.empty()) return;
  const auto kernel = transpose_layouts(tile, block_rows, [](auto TILE, auto BLOCK_ROWS) {
    return copy_through_shared<TILE, BLOCK_ROWS>;
  });
  kernel<<<grid_covering(in.width, in.height, tile, tile), dim3(tile, block_rows)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder
