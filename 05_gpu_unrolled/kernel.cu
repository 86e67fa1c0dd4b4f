#include "05_gpu_unrolled/kernel.hpp"

#include <stdexcept>

#include "common/tile_edges.cuh"
#include "common/cuda_check.hpp"
#include "common/grid.hpp"
#include "common/tile_dispatch.hpp"

namespace ladder {
namespace {

// sum += row ty of as times column tx of bs: the one loop this stage varies. TILE is a
// compile-time constant, so the compiler knows the trip count of every variant.
template <Unroll UNROLL, int TILE>
__device__ __forceinline__ void multiply_tiles(float& sum, const float (&as)[TILE][TILE],
                                               const float (&bs)[TILE][TILE], int ty, int tx) {
  if constexpr (UNROLL == Unroll::none) {
#pragma unroll 1
    for (int e = 0; e < TILE; ++e) sum += as[ty][e] * bs[e][tx];
  } else if constexpr (UNROLL == Unroll::manual4) {
    static_assert(TILE % 4 == 0, "the unroll by 4 has no remainder loop: 4 must divide TILE");
    for (int e = 0; e < TILE; e += 4) {
      sum += as[ty][e] * bs[e][tx];
      sum += as[ty][e + 1] * bs[e + 1][tx];
      sum += as[ty][e + 2] * bs[e + 2][tx];
      sum += as[ty][e + 3] * bs[e + 3][tx];
    }
  } else if constexpr (UNROLL == Unroll::full) {
#pragma unroll
    for (int e = 0; e < TILE; ++e) sum += as[ty][e] * bs[e][tx];
  } else {
    for (int e = 0; e < TILE; ++e) sum += as[ty][e] * bs[e][tx];
  }
}

// Stage 04's gemm_tiled_square, except for the call to multiply_tiles.
template <int TILE, Unroll UNROLL>
__global__ void gemm_tiled_unrolled(Matrix a, Matrix b, Matrix c) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  const int ty = threadIdx.y;
  const int tx = threadIdx.x;
  const int row0 = blockIdx.y * TILE;
  const int col0 = blockIdx.x * TILE;
  float sum = 0.0f;
  for (int t = 0; t < a.width; t += TILE) {
    as[ty][tx] = get_or_zero(clipped_sub(a, row0, t, TILE, TILE), ty, tx);
    bs[ty][tx] = get_or_zero(clipped_sub(b, t, col0, TILE, TILE), ty, tx);
    __syncthreads();
    multiply_tiles<UNROLL>(sum, as, bs, ty, tx);
    __syncthreads();
  }
  const Matrix c_tile = clipped_sub(c, row0, col0, TILE, TILE);
  if (ty < c_tile.height && tx < c_tile.width) c_tile.set(ty, tx, sum);
}

using Kernel = void (*)(Matrix, Matrix, Matrix);

template <int TILE>
Kernel kernel_for(Unroll unroll) {
  switch (unroll) {
    case Unroll::none: return gemm_tiled_unrolled<TILE, Unroll::none>;
    case Unroll::manual4: return gemm_tiled_unrolled<TILE, Unroll::manual4>;
    case Unroll::full: return gemm_tiled_unrolled<TILE, Unroll::full>;
    case Unroll::compiler: return gemm_tiled_unrolled<TILE, Unroll::compiler>;
  }
  throw std::invalid_argument("unknown unroll variant");
}

}  // namespace

void launch_gemm_unrolled(Unroll unroll, int tile, Matrix a, Matrix b, Matrix c) {
  check_gemm_shapes(a, b, c);
  // Stage 04's tiles: gemm_tiles turns the tile chosen at run time into an instantiation.
  const Kernel kernel = gemm_tiles(tile, [unroll](auto TILE) { return kernel_for<TILE>(unroll); });
  if (c.empty()) return;
  kernel<<<grid_covering(c.width, c.height, tile, tile), dim3(tile, tile)>>>(a, b, c);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder
