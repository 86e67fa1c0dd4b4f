// Stage 10: vectorised memory access.
//
// Same block and thread tiles as stage 09's 2D kernel. The one idea: move data 128 bits at a
// time. Global loads and stores use float4, and A's slice is stored TRANSPOSED in shared memory
// (as[k][m]), so the TM values of A a thread needs for one k are contiguous and, like B's TN
// values, arrive with two LDS.128 instead of eight LDS.32.
#include "10_gpu_vectorized/kernel.hpp"

#include <stdexcept>
#include <string>

#include "common/aligned_access.hpp"
#include "common/cuda_check.hpp"
#include "common/grid.hpp"

namespace ladder {
namespace {

// The slice depth BK is a template parameter: 16 by default (half as many barrier pairs per
// FMA as stage 09's 8), and 8 so that the program can show what the wider accesses alone are
// worth (--bk both; the split is measured in the notes).
constexpr int BM = 128, BN = 128, TM = 8, TN = 8;
constexpr int THREADS = BM * BN / (TM * TN);  // 256
static_assert(BM <= kEdgeRows, "edge blocks address at most kEdgeRows rows past a matrix");
constexpr int THREADS_X = BN / TN;
// Transposed stores of A (at BK = 16; at BK = 8, 16 rows x 2 quads, and no conflict left):
// one warp's float4 loads cover 8 rows x 4 quads of k. Without padding
// every quad's element j lands in the same bank for a given row (rows of as are 128 floats, a
// multiple of 32): a 4-way conflict. Four floats of padding shift quad q by 16*q banks, which
// leaves a 2-way conflict (quads 0/2 and 1/3) and keeps each row of as 16-byte aligned for
// LDS.128. (Stores are 8 per thread per slice against 64 LDS.128; the rest is not worth an
// unaligned pitch.)
constexpr int A_PITCH = BM + 4;

// Element (r, col) of m, or zero outside m.
__device__ float get_or_zero(const Matrix& m, int r, int col) {
  return (r < m.height && col < m.width) ? m.data[r * m.stride + col] : 0.0f;
}

// Four consecutive elements (r, col..col+3) of m; zeros outside m. Only for the vector path:
// m.data and m.stride let (r, col) with col % 4 == 0 be read as one aligned float4.
template <bool GUARD>
__device__ float4 get4(const Matrix& m, int r, int col) {
  if (!GUARD || (r < m.height && col + 3 < m.width)) {
    return *reinterpret_cast<const float4*>(m.data + r * m.stride + col);
  }
  return make_float4(get_or_zero(m, r, col), get_or_zero(m, r, col + 1),
                     get_or_zero(m, r, col + 2), get_or_zero(m, r, col + 3));
}

// Load tile: A's BM x BK slice at (row0, k0) into as[k][m] (transposed).
template <int BK, bool VEC, bool GUARD>
__device__ void load_a_transposed(const Matrix& a, int row0, int k0, float* as) {
  static_assert(BM * BK / 4 % THREADS == 0 && THREADS % BK == 0, "whole passes over A's slice");
  if constexpr (VEC) {
    // float4 loads: BK / 4 consecutive threads read a row's slice (32 bytes or more, whole
    // sectors); each float4 is spread over four rows of as.
#pragma unroll
    for (int i = 0; i < BM * BK / 4 / THREADS; ++i) {
      const int q = threadIdx.x + i * THREADS;
      const int r = q / (BK / 4);
      const int k = q % (BK / 4) * 4;
      const float4 v = get4<GUARD>(a, row0 + r, k0 + k);
      as[(k + 0) * A_PITCH + r] = v.x;
      as[(k + 1) * A_PITCH + r] = v.y;
      as[(k + 2) * A_PITCH + r] = v.z;
      as[(k + 3) * A_PITCH + r] = v.w;
    }
  } else {
    // Scalar path: BK consecutive threads read one row's slice; the transposed stores of a warp
    // spread over the banks thanks to the padding. Each pass moves THREADS / BK rows down, so
    // one pointer stepped by a fixed stride serves all passes (few registers).
    constexpr int ROWS_PER_PASS = THREADS / BK;
    const int r = threadIdx.x / BK;
    const int k = threadIdx.x % BK;
    const float* src = a.data + (row0 + r) * a.stride + k0 + k;
    const int step = ROWS_PER_PASS * a.stride;
#pragma unroll
    for (int i = 0; i < BM / ROWS_PER_PASS; ++i, src += step) {
      const bool inside = !GUARD || (row0 + r + i * ROWS_PER_PASS < a.height && k0 + k < a.width);
      as[k * A_PITCH + r + i * ROWS_PER_PASS] = inside ? *src : 0.0f;
    }
  }
}

// Load tile: B's BK x BN slice at (k0, col0) into bs[k][n] (as in global memory).
template <int BK, bool VEC, bool GUARD>
__device__ void load_b(const Matrix& b, int k0, int col0, float* bs) {
  static_assert(BK * BN / 4 % THREADS == 0 && BK % (THREADS / BN) == 0, "whole passes over B");
  if constexpr (VEC) {
#pragma unroll
    for (int i = 0; i < BK * BN / 4 / THREADS; ++i) {
      const int q = threadIdx.x + i * THREADS;
      const int k = q / (BN / 4);
      const int n = q % (BN / 4) * 4;
      *reinterpret_cast<float4*>(bs + k * BN + n) = get4<GUARD>(b, k0 + k, col0 + n);
    }
  } else {
    constexpr int ROWS_PER_PASS = THREADS / BN;
    const int k = threadIdx.x / BN;
    const int n = threadIdx.x % BN;
    const float* src = b.data + (k0 + k) * b.stride + col0 + n;
    const int step = ROWS_PER_PASS * b.stride;
#pragma unroll
    for (int i = 0; i < BK / ROWS_PER_PASS; ++i, src += step) {
      const bool inside = !GUARD || (k0 + k + i * ROWS_PER_PASS < b.height && col0 + n < b.width);
      bs[threadIdx.x + i * THREADS] = inside ? *src : 0.0f;
    }
  }
}

// Compute: one BK slice of outer products. Both fragments come in with LDS.128.
template <int BK>
__device__ void compute_slice(const float* as, const float* bs, int row, int col,
                              float (&acc)[TM][TN]) {
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    float a_frag[TM];
    float b_frag[TN];
#pragma unroll
    for (int i = 0; i < TM; i += 4)
      *reinterpret_cast<float4*>(&a_frag[i]) =
          *reinterpret_cast<const float4*>(as + k * A_PITCH + row + i);
#pragma unroll
    for (int j = 0; j < TN; j += 4)
      *reinterpret_cast<float4*>(&b_frag[j]) =
          *reinterpret_cast<const float4*>(bs + k * BN + col + j);
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
  }
}

// Store: the thread's TM x TN block of C, a float4 at a time on the vector path.
template <bool VEC, bool GUARD>
__device__ void store_c(const Matrix& c, int r0, int c0, const float (&acc)[TM][TN]) {
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = r0 + i;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int col = c0 + j;
      if (VEC && !GUARD) {  // edge blocks store one float at a time (fewer registers)
        *reinterpret_cast<float4*>(c.data + r * c.stride + col) =
            make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      } else {
#pragma unroll
        for (int jj = 0; jj < 4; ++jj) {
          if (!GUARD || (r < c.height && col + jj < c.width)) {
            c.data[r * c.stride + col + jj] = acc[i][j + jj];
          }
        }
      }
    }
  }
}

template <int BK, bool VEC, bool EDGE>
__device__ void block_tile(const Matrix& a, const Matrix& b, const Matrix& c, int row0, int col0,
                           float* as, float* bs) {
  const int row = threadIdx.x / THREADS_X * TM;
  const int col = threadIdx.x % THREADS_X * TN;
  float acc[TM][TN] = {};
  const int k_extent = a.width;
  for (int k0 = 0; k0 < k_extent; k0 += BK) {
    if (!EDGE && k0 + BK <= k_extent) {
      load_a_transposed<BK, VEC, false>(a, row0, k0, as);
      load_b<BK, VEC, false>(b, k0, col0, bs);
    } else {
      load_a_transposed<BK, VEC, true>(a, row0, k0, as);
      load_b<BK, VEC, true>(b, k0, col0, bs);
    }
    __syncthreads();  // compute reads what other threads stored
    compute_slice<BK>(as, bs, row, col, acc);
    __syncthreads();  // the next slice overwrites the tiles
  }
  store_c<VEC, EDGE>(c, row0 + row, col0 + col, acc);
}

// Two resident blocks per SM: ptxas keeps each thread within 128 registers.
template <int BK, bool VEC>
__global__ void __launch_bounds__(THREADS, 2) gemm_vectorized(Matrix a, Matrix b, Matrix c) {
  __shared__ __align__(16) float as[BK * A_PITCH];
  __shared__ __align__(16) float bs[BK * BN];
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  if (row0 + BM <= c.height && col0 + BN <= c.width) {
    block_tile<BK, VEC, false>(a, b, c, row0, col0, as, bs);
  } else {
    block_tile<BK, VEC, true>(a, b, c, row0, col0, as, bs);
  }
}

template <int BK>
void launch(OperandPath path, Matrix a, Matrix b, Matrix c) {
  const dim3 grid = grid_covering(c.width, c.height, BN, BM);
  if (path == OperandPath::sixteen_byte) {
    gemm_vectorized<BK, true><<<grid, THREADS>>>(a, b, c);
  } else {
    gemm_vectorized<BK, false><<<grid, THREADS>>>(a, b, c);
  }
}

OperandPath vectorized_path(Matrix a, Matrix b, Matrix c) { return float4_path({a, b, c}); }

}  // namespace

OperandPath launch_gemm_vectorized(Matrix a, Matrix b, Matrix c, int slice_depth) {
  check_gemm_shapes(a, b, c);
  if (slice_depth != 16 && slice_depth != 8) {
    throw std::invalid_argument("stage 10 has no slice depth " + std::to_string(slice_depth));
  }
  const OperandPath path = vectorized_path(a, b, c);
  if (c.empty()) return path;
  if (slice_depth == 16) {
    launch<16>(path, a, b, c);
  } else {
    launch<8>(path, a, b, c);
  }
  CUDA_CHECK_LAUNCH();
  return path;
}

}  // namespace ladder
