// Stage 11: warp tiling.
//
// Stage 10 gave thread t the block-tile columns t%16*8 .. +8, so the 16 threads of a warp that
// read B in one LDS.128 hit addresses 32 bytes apart: four bank conflicts' worth of wavefronts.
// The one idea here: add a level between block and thread. The block tile (BM x BN) is cut into
// warp tiles (WM x WN); a warp's lanes form an LR x LC grid over a WSUBM x WSUBN sub-tile that
// the warp steps over WMITER x WNITER times. A thread's TM x TN outputs are thus made of 4 x 4
// pieces spaced WSUBM / WSUBN apart. In one LDS.128 of B the lanes read LC consecutive float4
// (16 x LC contiguous bytes, the rest broadcasts), and of A LR consecutive float4: no bank
// conflict. The loads per FFMA are stage 10's; what changes is the wavefronts each load takes
// (results/smem_patterns.md).
// All sizes are template parameters; kCandidates lists the tilings the parameter search times.
#include "11_gpu_warp_tiled/kernel.hpp"

#include "common/aligned_access.hpp"
#include "common/config_table.hpp"
#include "common/cuda_check.hpp"
#include "common/grid.hpp"

namespace ladder {
namespace {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int THREADS_,
          int MIN_BLOCKS_ = 1>
struct Tiling {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int THREADS = THREADS_;
  // Blocks per SM that __launch_bounds__ asks ptxas to fit (it caps registers per thread).
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr int WARPS_N = BN / WN;   // warps along a row of the block tile
  static constexpr int LC = WN / TN;        // lanes along n inside a warp
  static constexpr int LR = 32 / LC;        // lanes along m
  static constexpr int WMITER = TM / 4;     // 4 x 4 pieces per thread, along m
  static constexpr int WNITER = TN / 4;     // ... and along n
  static constexpr int WSUBM = LR * 4;      // distance between a thread's pieces along m
  static constexpr int WSUBN = LC * 4;
  static constexpr int A_PITCH = BM + 4;    // padding: see stage 10 (transposed stores)
  static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of 4 x 4 pieces");
  static_assert(LR * LC == 32 && WM == LR * TM, "a warp's lanes cover its warp tile exactly");
  static_assert(BK % 4 == 0 && (BM * BK / 4) % THREADS == 0 && (BK * BN / 4) % THREADS == 0,
                "every thread loads the same number of float4");
  static_assert(BM <= kEdgeRows && BN <= kEdgeRows && BK <= kEdgeRows,
                "an edge tile addresses rows past the matrix: at most kEdgeRows "
                "(common/matrix.hpp)");
};

__device__ float get_or_zero(const Matrix& m, int r, int col) {
  return (r < m.height && col < m.width) ? m.data[r * m.stride + col] : 0.0f;
}

template <bool GUARD>
__device__ float4 get4(const Matrix& m, int r, int col) {
  if (!GUARD || (r < m.height && col + 3 < m.width)) {
    return *reinterpret_cast<const float4*>(m.data + r * m.stride + col);
  }
  return make_float4(get_or_zero(m, r, col), get_or_zero(m, r, col + 1),
                     get_or_zero(m, r, col + 2), get_or_zero(m, r, col + 3));
}

// Load tile: A's BM x BK slice into as[k][m], transposed (as in stage 10).
template <class T, bool VEC, bool GUARD>
__device__ void load_a_transposed(const Matrix& a, int row0, int k0, float* as) {
  if constexpr (VEC) {
#pragma unroll
    for (int i = 0; i < T::BM * T::BK / 4 / T::THREADS; ++i) {
      const int q = threadIdx.x + i * T::THREADS;
      const int r = q / (T::BK / 4);
      const int k = q % (T::BK / 4) * 4;
      const float4 v = get4<GUARD>(a, row0 + r, k0 + k);
      as[(k + 0) * T::A_PITCH + r] = v.x;
      as[(k + 1) * T::A_PITCH + r] = v.y;
      as[(k + 2) * T::A_PITCH + r] = v.z;
      as[(k + 3) * T::A_PITCH + r] = v.w;
    }
  } else {
    // Scalar: BK consecutive threads read one row's slice. Each pass moves THREADS / BK
    // rows down, so one pointer stepped by a fixed stride replaces a per-element address
    // (fewer registers held through the main loop).
    static_assert(T::THREADS % T::BK == 0, "whole rows per pass");
    constexpr int ROWS_PER_PASS = T::THREADS / T::BK;
    const int r = threadIdx.x / T::BK;
    const int k = threadIdx.x % T::BK;
    const float* src = a.data + (row0 + r) * a.stride + k0 + k;
    const int step = ROWS_PER_PASS * a.stride;
#pragma unroll
    for (int i = 0; i < T::BM / ROWS_PER_PASS; ++i, src += step) {
      const bool inside = !GUARD || (row0 + r + i * ROWS_PER_PASS < a.height && k0 + k < a.width);
      as[k * T::A_PITCH + r + i * ROWS_PER_PASS] = inside ? *src : 0.0f;
    }
  }
}

// Load tile: B's BK x BN slice into bs[k][n].
template <class T, bool VEC, bool GUARD>
__device__ void load_b(const Matrix& b, int k0, int col0, float* bs) {
  if constexpr (VEC) {
#pragma unroll
    for (int i = 0; i < T::BK * T::BN / 4 / T::THREADS; ++i) {
      const int q = threadIdx.x + i * T::THREADS;
      const int k = q / (T::BN / 4);
      const int n = q % (T::BN / 4) * 4;
      *reinterpret_cast<float4*>(bs + k * T::BN + n) = get4<GUARD>(b, k0 + k, col0 + n);
    }
  } else {
    static_assert(T::THREADS % T::BN == 0, "whole rows per pass");
    constexpr int ROWS_PER_PASS = T::THREADS / T::BN;
    const int k = threadIdx.x / T::BN;
    const int n = threadIdx.x % T::BN;
    const float* src = b.data + (k0 + k) * b.stride + col0 + n;
    const int step = ROWS_PER_PASS * b.stride;
#pragma unroll
    for (int i = 0; i < T::BK / ROWS_PER_PASS; ++i, src += step) {
      const bool inside = !GUARD || (k0 + k + i * ROWS_PER_PASS < b.height && col0 + n < b.width);
      bs[threadIdx.x + i * T::THREADS] = inside ? *src : 0.0f;
    }
  }
}

// Compute: one BK slice. a_off / b_off locate this thread's first piece inside as / bs rows.
template <class T>
__device__ void compute_slice(const float* as, const float* bs, int a_off, int b_off,
                              float (&acc)[T::TM][T::TN]) {
#pragma unroll
  for (int k = 0; k < T::BK; ++k) {
    float a_frag[T::TM];
    float b_frag[T::TN];
#pragma unroll
    for (int i = 0; i < T::WMITER; ++i)
      *reinterpret_cast<float4*>(&a_frag[4 * i]) =
          *reinterpret_cast<const float4*>(as + k * T::A_PITCH + a_off + i * T::WSUBM);
#pragma unroll
    for (int j = 0; j < T::WNITER; ++j)
      *reinterpret_cast<float4*>(&b_frag[4 * j]) =
          *reinterpret_cast<const float4*>(bs + k * T::BN + b_off + j * T::WSUBN);
#pragma unroll
    for (int i = 0; i < T::TM; ++i)
#pragma unroll
      for (int j = 0; j < T::TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
  }
}

// Store: acc[i][j] belongs at row r0 + (i/4)*WSUBM + i%4, column c0 + (j/4)*WSUBN + j%4.
template <class T, bool VEC, bool GUARD>
__device__ void store_c(const Matrix& c, int r0, int c0, const float (&acc)[T::TM][T::TN]) {
#pragma unroll
  for (int i = 0; i < T::TM; ++i) {
    const int r = r0 + i / 4 * T::WSUBM + i % 4;
#pragma unroll
    for (int j = 0; j < T::TN; j += 4) {
      const int col = c0 + j / 4 * T::WSUBN;
      if (VEC && !GUARD) {
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

template <class T, bool VEC, bool EDGE>
__device__ void block_tile(const Matrix& a, const Matrix& b, const Matrix& c, int row0, int col0,
                           float* as, float* bs) {
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int warp_row = warp / T::WARPS_N * T::WM;  // warp tile's corner inside the block tile
  const int warp_col = warp % T::WARPS_N * T::WN;
  const int a_off = warp_row + lane / T::LC * 4;   // thread's first piece inside the block tile
  const int b_off = warp_col + lane % T::LC * 4;
  float acc[T::TM][T::TN] = {};
  const int k_extent = a.width;
  for (int k0 = 0; k0 < k_extent; k0 += T::BK) {
    if (!EDGE && k0 + T::BK <= k_extent) {
      load_a_transposed<T, VEC, false>(a, row0, k0, as);
      load_b<T, VEC, false>(b, k0, col0, bs);
    } else {
      load_a_transposed<T, VEC, true>(a, row0, k0, as);
      load_b<T, VEC, true>(b, k0, col0, bs);
    }
    __syncthreads();  // compute reads what other threads stored
    compute_slice<T>(as, bs, a_off, b_off, acc);
    __syncthreads();  // the next slice overwrites the tiles
  }
  store_c<T, VEC, EDGE>(c, row0 + a_off, col0 + b_off, acc);
}

template <class T, bool VEC>
__global__ void __launch_bounds__(T::THREADS, T::MIN_BLOCKS)
    gemm_warp_tiled(Matrix a, Matrix b, Matrix c) {
  __shared__ __align__(16) float as[T::BK * T::A_PITCH];
  __shared__ __align__(16) float bs[T::BK * T::BN];
  const int row0 = blockIdx.y * T::BM;
  const int col0 = blockIdx.x * T::BN;
  if (row0 + T::BM <= c.height && col0 + T::BN <= c.width) {
    block_tile<T, VEC, false>(a, b, c, row0, col0, as, bs);
  } else {
    block_tile<T, VEC, true>(a, b, c, row0, col0, as, bs);
  }
}

template <class T>
void launch(OperandPath path, Matrix a, Matrix b, Matrix c) {
  const dim3 grid = grid_covering(c.width, c.height, T::BN, T::BM);
  if (path == OperandPath::sixteen_byte) {
    gemm_warp_tiled<T, true><<<grid, T::THREADS>>>(a, b, c);
  } else {
    gemm_warp_tiled<T, false><<<grid, T::THREADS>>>(a, b, c);
  }
}

// The first is the default: the fastest at 4096^3 in the search on the H100
// (results/11_gpu_warp_tiled/search.md). Names: block tile BMxBNxBK, warp tile, thread tile,
// threads per block, and b2/b4 where __launch_bounds__ asks for 2 or 4 blocks per SM.
//                                        BM   BN  BK  WM  WN  TM  TN  threads [blocks/SM]
const NamedLaunch<void (*)(OperandPath, Matrix, Matrix, Matrix)> kCandidates[] = {
    {"128x128x16_w64x32_t8x8_256_b2", launch<Tiling<128, 128, 16, 64, 32, 8, 8, 256, 2>>},
    {"128x128x16_w32x64_t8x8_256_b2", launch<Tiling<128, 128, 16, 32, 64, 8, 8, 256, 2>>},
    {"128x128x8_w64x32_t8x8_256_b2", launch<Tiling<128, 128, 8, 64, 32, 8, 8, 256, 2>>},
    {"128x128x8_w64x32_t8x8_256", launch<Tiling<128, 128, 8, 64, 32, 8, 8, 256>>},
    {"128x128x8_w32x64_t8x8_256", launch<Tiling<128, 128, 8, 32, 64, 8, 8, 256>>},
    {"128x128x16_w64x32_t8x8_256", launch<Tiling<128, 128, 16, 64, 32, 8, 8, 256>>},
    {"128x128x16_w32x64_t8x8_256", launch<Tiling<128, 128, 16, 32, 64, 8, 8, 256>>},
    {"128x64x8_w64x32_t8x8_128", launch<Tiling<128, 64, 8, 64, 32, 8, 8, 128>>},
    {"64x128x8_w32x64_t8x8_128", launch<Tiling<64, 128, 8, 32, 64, 8, 8, 128>>},
    {"64x64x8_w32x32_t8x4_128", launch<Tiling<64, 64, 8, 32, 32, 8, 4, 128>>},
    {"64x64x16_w32x32_t8x4_128_b4", launch<Tiling<64, 64, 16, 32, 32, 8, 4, 128, 4>>},
    {"128x256x8_w64x64_t8x16_256", launch<Tiling<128, 256, 8, 64, 64, 8, 16, 256>>},
    {"256x128x8_w64x64_t16x8_256", launch<Tiling<256, 128, 8, 64, 64, 16, 8, 256>>},
    {"128x128x8_w64x64_t8x16_128", launch<Tiling<128, 128, 8, 64, 64, 8, 16, 128>>},
};

OperandPath warp_tiled_path(Matrix a, Matrix b, Matrix c) { return float4_path({a, b, c}); }

}  // namespace

std::vector<std::string> warp_tiled_configs() { return config_names(kCandidates); }

OperandPath launch_gemm_warp_tiled(const std::string& config, Matrix a, Matrix b, Matrix c) {
  check_gemm_shapes(a, b, c);
  const auto& candidate = find_config(kCandidates, config, "stage 11 has no tiling");
  const OperandPath path = warp_tiled_path(a, b, c);
  if (c.empty()) return path;
  candidate.launch(path, a, b, c);
  CUDA_CHECK_LAUNCH();
  return path;
}

}  // namespace ladder
