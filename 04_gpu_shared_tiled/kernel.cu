#include "04_gpu_shared_tiled/kernel.hpp"

#include "common/tile_edges.cuh"
#include "common/cuda_check.hpp"
#include "common/grid.hpp"
#include "common/tile_dispatch.hpp"

namespace ladder {
namespace {

// One block computes one TILE x TILE tile of C, walking K one square tile at a time.
// The two flags exist only so the racecheck demonstration can drop a barrier.
template <int TILE, bool SYNC_AFTER_LOAD = true, bool SYNC_AFTER_COMPUTE = true>
__global__ void gemm_tiled_square(Matrix a, Matrix b, Matrix c) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  const int ty = threadIdx.y;
  const int tx = threadIdx.x;
  const int row0 = blockIdx.y * TILE;  // this block's tile of C starts at (row0, col0)
  const int col0 = blockIdx.x * TILE;
  float sum = 0.0f;
  for (int t = 0; t < a.width; t += TILE) {
    // Each thread stores one element of each tile; threads along x take neighbours in a
    // row, so every load is coalesced.
    as[ty][tx] = get_or_zero(clipped_sub(a, row0, t, TILE, TILE), ty, tx);
    bs[ty][tx] = get_or_zero(clipped_sub(b, t, col0, TILE, TILE), ty, tx);
    // The loop below reads elements that other threads stored.
    if constexpr (SYNC_AFTER_LOAD) __syncthreads();
    for (int e = 0; e < TILE; ++e) sum += as[ty][e] * bs[e][tx];
    // The next iteration overwrites both tiles: nobody may still be reading them.
    if constexpr (SYNC_AFTER_COMPUTE) __syncthreads();
  }
  const Matrix c_tile = clipped_sub(c, row0, col0, TILE, TILE);
  if (ty < c_tile.height && tx < c_tile.width) c_tile.set(ty, tx, sum);
}

// shared-storage's other policy: four tiles' worth of K per step, in a TILE x 4*TILE slab of A
// and a 4*TILE x TILE slab of B, so a barrier pair comes every 4*TILE products.
template <int TILE>
__global__ void gemm_tiled_wide(Matrix a, Matrix b, Matrix c) {
  constexpr int SLAB = 4 * TILE;
  __shared__ float as[TILE][SLAB];
  __shared__ float bs[SLAB][TILE];
  const int ty = threadIdx.y;
  const int tx = threadIdx.x;
  const int row0 = blockIdx.y * TILE;
  const int col0 = blockIdx.x * TILE;
  float sum = 0.0f;
  for (int t = 0; t < a.width; t += SLAB) {
    const Matrix a_slab = clipped_sub(a, row0, t, TILE, SLAB);
    const Matrix b_slab = clipped_sub(b, t, col0, SLAB, TILE);
    // Still TILE x TILE threads, so each stores four elements of each slab.
    for (int s = 0; s < SLAB; s += TILE) {
      as[ty][s + tx] = get_or_zero(a_slab, ty, s + tx);
      bs[s + ty][tx] = get_or_zero(b_slab, s + ty, tx);
    }
    __syncthreads();
    for (int e = 0; e < SLAB; ++e) sum += as[ty][e] * bs[e][tx];
    __syncthreads();
  }
  const Matrix c_tile = clipped_sub(c, row0, col0, TILE, TILE);
  if (ty < c_tile.height && tx < c_tile.width) c_tile.set(ty, tx, sum);
}

using Kernel = void (*)(Matrix, Matrix, Matrix);

void launch(Kernel kernel, int tile, Matrix a, Matrix b, Matrix c) {
  check_gemm_shapes(a, b, c);
  if (c.empty()) return;
  kernel<<<grid_covering(c.width, c.height, tile, tile), dim3(tile, tile)>>>(a, b, c);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

// The kernels are templates over the tile; gemm_tiles turns the tile chosen at run time
// into one of the instantiations.
void launch_gemm_tiled(TilePolicy policy, int tile, Matrix a, Matrix b, Matrix c) {
  const Kernel kernel = gemm_tiles(tile, [policy](auto TILE) -> Kernel {
    return policy == TilePolicy::square ? gemm_tiled_square<TILE> : gemm_tiled_wide<TILE>;
  });
  launch(kernel, tile, a, b, c);
}

void launch_gemm_tiled_racy(DroppedSync dropped, int tile, Matrix a, Matrix b, Matrix c) {
  const Kernel kernel = gemm_tiles(tile, [dropped](auto TILE) -> Kernel {
    return dropped == DroppedSync::after_load ? gemm_tiled_square<TILE, false, true>
                                              : gemm_tiled_square<TILE, true, false>;
  });
  launch(kernel, tile, a, b, c);
}

}  // namespace ladder
