#include "common/copy_kernel.hpp"

#include <stdexcept>

#include "common/cuda_check.hpp"
#include "common/launch.hpp"

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
void launch(Matrix in, Matrix out) {
  const dim3 grid = grid_covering(in.width, in.height, TILE, TILE);
  copy_tiles<TILE, BLOCK_ROWS><<<grid, dim3(TILE, BLOCK_ROWS)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_tiled_copy(Matrix in, Matrix out, int tile, int block_rows) {
  if (tile == 32 && block_rows == 32) return launch<32, 32>(in, out);
  if (tile == 32 && block_rows == 8) return launch<32, 8>(in, out);
  if (tile == 16 && block_rows == 16) return launch<16, 16>(in, out);
  if (tile == 16 && block_rows == 4) return launch<16, 4>(in, out);
  throw std::invalid_argument("launch_tiled_copy: unsupported tile or block rows");
}

}  // namespace ladder
