// Stage 09: register tiling.
//
// Stage 04 made every thread compute one element of C, so each multiply-add needed two
// shared-memory loads. Here each thread computes several outputs held in registers: a value
// read from shared memory once is reused by TM (1D) or TM + TN (2D) multiply-adds, which turns
// the inner loop into an outer product and moves the bottleneck off shared memory.
#include "09_gpu_register_tiled/kernel.hpp"

#include "common/cuda_check.hpp"
#include "common/grid.hpp"

namespace ladder {
namespace {

// Copies the ROWS x COLS tile of m whose top-left element is (row0, col0) into tile[ROWS][COLS].
// Consecutive threads take consecutive columns, so global reads are coalesced; each pass covers
// THREADS / COLS whole rows, so one pointer stepped by a fixed stride serves every pass (few
// registers). GUARD is false for tiles known to lie inside m: those skip the bounds tests.
// Outside m we store zeros, so the compute loop needs no tests of its own and never reads
// uninitialised shared memory.
template <int ROWS, int COLS, int THREADS, bool GUARD>
__device__ void load_tile(const Matrix m, int row0, int col0, float* tile) {
  static_assert(THREADS % COLS == 0 && ROWS % (THREADS / COLS) == 0, "whole rows per pass");
  constexpr int ROWS_PER_PASS = THREADS / COLS;
  const int r = threadIdx.x / COLS;
  const int c = threadIdx.x % COLS;
  const float* src = m.data + (row0 + r) * m.stride + col0 + c;
  const int step = ROWS_PER_PASS * m.stride;
#pragma unroll
  for (int i = 0; i < ROWS / ROWS_PER_PASS; ++i, src += step) {
    const bool inside = !GUARD || (row0 + r + i * ROWS_PER_PASS < m.height && col0 + c < m.width);
    tile[threadIdx.x + i * THREADS] = inside ? *src : 0.0f;
  }
}

// ---- 1D: BM x BN block tile, each thread a column of TM outputs --------------------------------
namespace one_d {
// Why 64x64 with BK 16 and TM 16 (256 threads, two resident blocks) rather than the classic
// 64x64x8 with TM 8 (512 threads):
// Each k step costs 1 + TM shared loads for TM FMAs, so a longer column pays better.
constexpr int BM = 64, BN = 64, BK = 16, TM = 16;
constexpr int MIN_BLOCKS = 2;  // resident blocks per SM asked of ptxas (__launch_bounds__)
constexpr int THREADS = BM * BN / TM;  // 256
static_assert(BM <= kEdgeRows && BN <= kEdgeRows && BK <= kEdgeRows,
              "an edge tile addresses rows past the matrix: at most kEdgeRows (common/matrix.hpp)");

// EDGE is true for blocks whose tile of C sticks out of c: only they pay for bounds tests.
template <bool EDGE>
__device__ void block_tile(Matrix a, Matrix b, Matrix c, int row0, int col0, float* as, float* bs) {
  const int col = threadIdx.x % BN;       // this thread's column inside the tile
  const int row = threadIdx.x / BN * TM;  // first of its TM rows
  float acc[TM] = {};
  const int k_extent = a.width;
  for (int k0 = 0; k0 < k_extent; k0 += BK) {
    // A partial last slice of K needs tests even in an interior block.
    if (!EDGE && k0 + BK <= k_extent) {
      load_tile<BM, BK, THREADS, false>(a, row0, k0, as);
      load_tile<BK, BN, THREADS, false>(b, k0, col0, bs);
    } else {
      load_tile<BM, BK, THREADS, true>(a, row0, k0, as);
      load_tile<BK, BN, THREADS, true>(b, k0, col0, bs);
    }
    __syncthreads();  // the loop below reads what other threads stored
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      // One shared load of B feeds TM multiply-adds. The whole warp shares `row`, so the
      // loads of A are broadcasts.
      const float b_val = bs[k * BN + col];
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] += as[(row + i) * BK + k] * b_val;
    }
    __syncthreads();  // the next slice overwrites the tiles
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + row + i;
    const int cc = col0 + col;
    if (!EDGE || (r < c.height && cc < c.width)) c.data[r * c.stride + cc] = acc[i];
  }
}

__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    gemm_register_tiled_1d(Matrix a, Matrix b, Matrix c) {
  __shared__ float as[BM * BK];
  __shared__ float bs[BK * BN];
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  // A block-uniform branch: no divergence, and interior blocks run the unguarded code.
  if (row0 + BM <= c.height && col0 + BN <= c.width) {
    block_tile<false>(a, b, c, row0, col0, as, bs);
  } else {
    block_tile<true>(a, b, c, row0, col0, as, bs);
  }
}
}  // namespace one_d

// ---- 2D: BM x BN block tile, each thread a TM x TN block of outputs ----------------------------
namespace two_d {
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int THREADS = BM * BN / (TM * TN);  // 256
constexpr int THREADS_X = BN / TN;           // threads along a row of the tile
static_assert(BM <= kEdgeRows && BN <= kEdgeRows && BK <= kEdgeRows,
              "an edge tile addresses rows past the matrix: at most kEdgeRows (common/matrix.hpp)");

template <bool EDGE>
__device__ void block_tile(Matrix a, Matrix b, Matrix c, int row0, int col0, float* as, float* bs) {
  const int row = threadIdx.x / THREADS_X * TM;  // top-left of this thread's TM x TN block
  const int col = threadIdx.x % THREADS_X * TN;
  float acc[TM][TN] = {};
  float a_frag[TM];
  float b_frag[TN];
  const int k_extent = a.width;
  for (int k0 = 0; k0 < k_extent; k0 += BK) {
    if (!EDGE && k0 + BK <= k_extent) {
      load_tile<BM, BK, THREADS, false>(a, row0, k0, as);
      load_tile<BK, BN, THREADS, false>(b, k0, col0, bs);
    } else {
      load_tile<BM, BK, THREADS, true>(a, row0, k0, as);
      load_tile<BK, BN, THREADS, true>(b, k0, col0, bs);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      // Outer product: TM + TN shared loads feed TM * TN multiply-adds. (With the k loop
      // unrolled, nvcc merges each thread's contiguous reads - a row of A's slice, TN values
      // of B - into LDS.128 by itself; stage 10 makes 128-bit access explicit and global.)
#pragma unroll
      for (int i = 0; i < TM; ++i) a_frag[i] = as[(row + i) * BK + k];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_frag[j] = bs[k * BN + col + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + row + i;
      const int cc = col0 + col + j;
      if (!EDGE || (r < c.height && cc < c.width)) c.data[r * c.stride + cc] = acc[i][j];
    }
}

__global__ void __launch_bounds__(THREADS) gemm_register_tiled_2d(Matrix a, Matrix b, Matrix c) {
  __shared__ float as[BM * BK];
  __shared__ float bs[BK * BN];
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  if (row0 + BM <= c.height && col0 + BN <= c.width) {
    block_tile<false>(a, b, c, row0, col0, as, bs);
  } else {
    block_tile<true>(a, b, c, row0, col0, as, bs);
  }
}
}  // namespace two_d

}  // namespace

void launch_gemm_register_tiled(RegisterTiling variant, Matrix a, Matrix b, Matrix c) {
  check_gemm_shapes(a, b, c);
  if (c.empty()) return;
  if (variant == RegisterTiling::one_d) {
    const dim3 grid = grid_covering(c.width, c.height, one_d::BN, one_d::BM);
    one_d::gemm_register_tiled_1d<<<grid, one_d::THREADS>>>(a, b, c);
  } else {
    const dim3 grid = grid_covering(c.width, c.height, two_d::BN, two_d::BM);
    two_d::gemm_register_tiled_2d<<<grid, two_d::THREADS>>>(a, b, c);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder
