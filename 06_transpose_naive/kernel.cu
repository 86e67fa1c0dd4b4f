#include "06_transpose_naive/kernel.hpp"

#include <stdexcept>

#include "common/cuda_check.hpp"
#include "common/grid.hpp"
#include "common/tile_dispatch.hpp"

namespace ladder {
namespace {

template <int TILE, int BLOCK_ROWS>
__global__ void transpose_naive(Matrix in, Matrix out) {
  const int in_row = blockIdx.y * TILE + threadIdx.y;
  const int in_col = blockIdx.x * TILE + threadIdx.x;
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    // A warp reads neighbouring floats along a row of `in` (coalesced) but writes each one
    // to a different row of `out`, out.stride floats apart: one 32-byte sector per float.
    if (in_row + j < in.height && in_col < in.width) {
      out.set(in_col, in_row + j, in.get(in_row + j, in_col));
    }
  }
}

}  // namespace

void launch_transpose_naive(Matrix in, Matrix out, int tile, int block_rows) {
  check_view(in);
  check_view(out);
  if (out.height != in.width || out.width != in.height) {
    throw std::invalid_argument("launch_transpose_naive: out must be in.width x in.height");
  }
  const auto kernel = transpose_layouts(tile, block_rows, [](auto TILE, auto BLOCK_ROWS) {
    return transpose_naive<TILE, BLOCK_ROWS>;
  });
  if (in.empty()) return;
  kernel<<<grid_covering(in.width, in.height, tile, tile), dim3(tile, block_rows)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder
