#include "06_transpose_naive/kernel.hpp"

#include <stdexcept>

#include "common/cuda_check.hpp"
#include "common/launch.hpp"

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

template <int TILE, int BLOCK_ROWS>
void launch(Matrix in, Matrix out) {
  const dim3 grid = grid_covering(in.width, in.height, TILE, TILE);
  transpose_naive<TILE, BLOCK_ROWS><<<grid, dim3(TILE, BLOCK_ROWS)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_transpose_naive(Matrix in, Matrix out, int tile, int block_rows) {
  if (out.height != in.width || out.width != in.height) {
    throw std::invalid_argument("launch_transpose_naive: out must be in.width x in.height");
  }
  if (tile == 32 && block_rows == 32) return launch<32, 32>(in, out);
  if (tile == 32 && block_rows == 8) return launch<32, 8>(in, out);
  if (tile == 16 && block_rows == 16) return launch<16, 16>(in, out);
  if (tile == 16 && block_rows == 4) return launch<16, 4>(in, out);
  throw std::invalid_argument("launch_transpose_naive: unsupported tile or block rows");
}

}  // namespace ladder
