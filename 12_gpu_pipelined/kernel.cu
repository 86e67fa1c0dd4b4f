// Stage 12: software pipelining, stage 11's warp tiles fed by a cp.async ring of slices (README).
#include "12_gpu_pipelined/kernel.hpp"

#include <algorithm>

#include "common/aligned_access.hpp"
#include "common/config_table.hpp"
#include "common/cuda_check.hpp"
#include "common/errors.hpp"
#include "common/tile_order.cuh"

namespace ladder {
namespace {

// The pipeline's supporting details, each a switch that --ablate turns off alone to measure it.
template <int GROUP_M_, bool ASYNC_COPIES_, bool DOUBLE_FRAGMENTS_, bool ONE_BARRIER_,
          bool LAUNCH_BOUNDS_, bool CROSS_SLICE_PREFETCH_>
struct Features {
  static constexpr int GROUP_M = GROUP_M_;                     // tile rows per raster group
  static constexpr bool ASYNC_COPIES = ASYNC_COPIES_;          // cp.async, not loads + stores
  static constexpr bool DOUBLE_FRAGMENTS = DOUBLE_FRAGMENTS_;  // step k+1 loaded before k runs
  static constexpr bool ONE_BARRIER = ONE_BARRIER_;  // not two per slice: the ring makes one do
  static constexpr bool LAUNCH_BOUNDS = LAUNCH_BOUNDS_;  // ptxas budgets for MIN_BLOCKS per SM
  static constexpr bool CROSS_SLICE_PREFETCH = CROSS_SLICE_PREFETCH_;  // see block_tile
};
using DefaultFeatures = Features<8, true, true, true, true, false>;
using Prefetch = Features<8, true, true, true, true, true>;

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int THREADS_,
          int STAGES_, int MIN_BLOCKS_>
struct Tiling {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int THREADS = THREADS_, STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr int WARPS_N = BN / WN;
  static constexpr int LC = WN / TN, LR = 32 / LC;        // a warp's lanes: LR rows x LC columns
  static constexpr int WMITER = TM / 4, WNITER = TN / 4;  // 4x4 pieces per thread
  static constexpr int WSUBM = LR * 4, WSUBN = LC * 4;    // between a thread's pieces
  // Transposed A, rows padded: a warp's 4-byte copies of A fall 1 per bank at BK 8, 2 at BK 16.
  static constexpr int A_PITCH = BM + 4, A_FLOATS = BK * A_PITCH;
  static constexpr int STAGE_FLOATS = A_FLOATS + BK * BN, SMEM_BYTES = STAGES * STAGE_FLOATS * 4;
  static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of 4 x 4 pieces");
  static_assert(LR * LC == 32 && WM == LR * TM, "a warp's lanes cover its warp tile exactly");
  static_assert(STAGES >= 2, "a pipeline needs at least two buffers");
  static_assert(BM <= kEdgeRows, "edge blocks address at most kEdgeRows rows past a matrix");
};

// cp.async on sm_80+; plain loads and stores on older GPUs and in the plain-copies ablation.
#if __CUDA_ARCH__ >= 800
constexpr bool kHasCpAsync = true;
#else
constexpr bool kHasCpAsync = false;
#endif

template <class F>
__device__ void copy4_async(float* dst, const float* src, bool valid) {
  if constexpr (F::ASYNC_COPIES && kHasCpAsync) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src),
                 "r"(valid ? 4 : 0)
                 : "memory");
  } else {
    *dst = valid ? *src : 0.0f;
  }
}

template <class F>
__device__ void copy16_async(float* dst, const float* src, int src_bytes) {
  if constexpr (F::ASYNC_COPIES && kHasCpAsync) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                 "r"(src_bytes)
                 : "memory");
  } else if (src_bytes == 16) {
    *reinterpret_cast<float4*>(dst) = *reinterpret_cast<const float4*>(src);
  } else {
    for (int j = 0; j < 4; ++j) dst[j] = 4 * j < src_bytes ? src[j] : 0.0f;
  }
}

template <class F>
__device__ void commit_copies() {
  if constexpr (F::ASYNC_COPIES && kHasCpAsync) {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  }
}

template <class F, int PENDING>
__device__ void wait_copies() {
  if constexpr (F::ASYNC_COPIES && kHasCpAsync) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
  }
}

// Copies slices of A (transposed) and B into the ring. What does not change from slice to slice
// is worked out once, so few registers hold addresses: the accumulators and double fragments
// take 64 + 2 x (8 + 8) = 96 of the 128 registers that two blocks of 256 threads per SM leave.
template <class T, class F, bool VEC>
struct SliceLoader {
  // A, one float at a time into as[k][m]: BK consecutive threads read whole 32-byte sectors.
  static constexpr int A_ROWS_PER_PASS = T::THREADS / T::BK, A_PASSES = T::BM / A_ROWS_PER_PASS;
  // B: W floats per copy (16 bytes on the vector path), rows of bs as in global memory.
  static constexpr int W = VEC ? 4 : 1, B_THREADS_PER_ROW = T::BN / W;
  static constexpr int B_ROWS_PER_PASS = T::THREADS / B_THREADS_PER_ROW;
  static constexpr int B_PASSES = T::BK / B_ROWS_PER_PASS;
  static_assert(T::THREADS % T::BK == 0 && T::BM % A_ROWS_PER_PASS == 0, "even split of A");
  static_assert(T::THREADS % B_THREADS_PER_ROW == 0 && T::BK % B_ROWS_PER_PASS == 0,
                "even split of B");

  const float *a_src, *b_src;    // this thread's first elements of A and B in slice 0
  int a_pass_step, b_pass_step;  // elements between passes: A_/B_ROWS_PER_PASS rows
  int b_slice_step;              // elements between slices of B: BK rows of b
  unsigned as_dst, bs_dst;       // shared-memory offsets (bytes) of this thread's first copy
  int row0, col0;                // the block tile's corner, for the bounds tests of edge blocks

  __device__ SliceLoader(const Matrix& a, const Matrix& b, int row0_, int col0_)
      : row0(row0_), col0(col0_) {
    const int t = threadIdx.x;
    const int a_k = t % T::BK, a_r = t / T::BK;
    const int b_k = t / B_THREADS_PER_ROW, b_n = t % B_THREADS_PER_ROW * W;
    a_src = a.data + (row0 + a_r) * a.stride + a_k;
    b_src = b.data + b_k * b.stride + col0 + b_n;
    a_pass_step = A_ROWS_PER_PASS * a.stride;
    b_pass_step = B_ROWS_PER_PASS * b.stride;
    b_slice_step = T::BK * b.stride;
    as_dst = 4 * (a_k * T::A_PITCH + a_r);
    bs_dst = 4 * (T::A_FLOATS + b_k * T::BN + b_n);
  }

  // Copies slice k0 into `stage`. GUARD (edge blocks and a partial last slice only): bounds
  // tests, their inputs recomputed from threadIdx rather than kept in registers.
  template <bool GUARD>
  __device__ void load(const Matrix& a, const Matrix& b, int k0, float* stage) const {
    const int t = threadIdx.x;
    char* base = reinterpret_cast<char*>(stage);
#pragma unroll
    for (int i = 0; i < A_PASSES; ++i) {
      const bool valid = !GUARD || (row0 + t / T::BK + i * A_ROWS_PER_PASS < a.height &&
                                    k0 + t % T::BK < a.width);
      const float* src = valid ? a_src + k0 + i * a_pass_step : a.data;
      copy4_async<F>(reinterpret_cast<float*>(base + as_dst) + i * A_ROWS_PER_PASS, src, valid);
    }
    const float* b_slice = b_src + k0 / T::BK * b_slice_step;
#pragma unroll
    for (int i = 0; i < B_PASSES; ++i) {
      int bytes = 4 * W;
      if (GUARD) {
        const int left = b.width - (col0 + t % B_THREADS_PER_ROW * W);  // columns from here on
        const bool row_ok = k0 + t / B_THREADS_PER_ROW + i * B_ROWS_PER_PASS < b.height;
        bytes = row_ok ? 4 * (left < 0 ? 0 : (left > W ? W : left)) : 0;
      }
      const float* src = bytes > 0 ? b_slice + i * b_pass_step : b.data;
      float* dst = reinterpret_cast<float*>(base + bs_dst) + i * B_ROWS_PER_PASS * T::BN;
      if constexpr (VEC) {
        copy16_async<F>(dst, src, bytes);
      } else {
        copy4_async<F>(dst, src, bytes > 0);
      }
    }
  }
};

template <class T>
__device__ void load_fragments(const float* as, const float* bs, int k, int a_off, int b_off,
                               float (&a_frag)[T::TM], float (&b_frag)[T::TN]) {
#pragma unroll
  for (int i = 0; i < T::WMITER; ++i)
    *reinterpret_cast<float4*>(&a_frag[4 * i]) =
        *reinterpret_cast<const float4*>(as + k * T::A_PITCH + a_off + i * T::WSUBM);
#pragma unroll
  for (int j = 0; j < T::WNITER; ++j)
    *reinterpret_cast<float4*>(&b_frag[4 * j]) =
        *reinterpret_cast<const float4*>(bs + k * T::BN + b_off + j * T::WSUBN);
}

template <class T>
__device__ void outer_product(const float (&a_frag)[T::TM], const float (&b_frag)[T::TN],
                              float (&acc)[T::TM][T::TN]) {
#pragma unroll
  for (int i = 0; i < T::TM; ++i)
#pragma unroll
    for (int j = 0; j < T::TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
}

// One slice, step k+1's fragments loaded before step k's FMAs, which hide their latency.
template <class T, class F>
__device__ void compute_slice(const float* as, const float* bs, int a_off, int b_off,
                              float (&acc)[T::TM][T::TN]) {
  if constexpr (F::DOUBLE_FRAGMENTS) {
    float a_frag[2][T::TM], b_frag[2][T::TN];
    load_fragments<T>(as, bs, 0, a_off, b_off, a_frag[0], b_frag[0]);
#pragma unroll
    for (int k = 0; k < T::BK; ++k) {
      if (k + 1 < T::BK) {
        load_fragments<T>(as, bs, k + 1, a_off, b_off, a_frag[(k + 1) % 2], b_frag[(k + 1) % 2]);
      }
      outer_product<T>(a_frag[k % 2], b_frag[k % 2], acc);
    }
  } else {  // ablation: load, then multiply, as stage 11 does
#pragma unroll
    for (int k = 0; k < T::BK; ++k) {
      float a_frag[T::TM], b_frag[T::TN];
      load_fragments<T>(as, bs, k, a_off, b_off, a_frag, b_frag);
      outer_product<T>(a_frag, b_frag, acc);
    }
  }
}

// As stage 11: edge blocks store one float at a time.
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

template <class T, class F, bool VEC, bool EDGE>
__device__ void block_tile(const Matrix& a, const Matrix& b, const Matrix& c, int row0, int col0,
                           float* smem) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int a_off = warp / T::WARPS_N * T::WM + lane / T::LC * 4;
  const int b_off = warp % T::WARPS_N * T::WN + lane % T::LC * 4;
  const int k_extent = a.width;
  const int k_tiles = (k_extent + T::BK - 1) / T::BK;

  const SliceLoader<T, F, VEC> loader(a, b, row0, col0);
  auto load = [&](int kt, int stage) {
    float* buffer = smem + stage * T::STAGE_FLOATS;
    const int k0 = kt * T::BK;
    if (!EDGE && k0 + T::BK <= k_extent) {
      loader.template load<false>(a, b, k0, buffer);
    } else {
      loader.template load<true>(a, b, k0, buffer);
    }
  };

  // Prologue: STAGES-1 slices, a group committed per slot even if empty (README: Pitfalls).
#pragma unroll
  for (int s = 0; s < T::STAGES - 1; ++s) {
    if (s < k_tiles) load(s, s);
    commit_copies<F>();
  }

  float acc[T::TM][T::TN] = {};
  int read_stage = 0, write_stage = T::STAGES - 1;  // slice kt is read from stage kt % STAGES
  if constexpr (F::CROSS_SLICE_PREFETCH) {
    static_assert(F::DOUBLE_FRAGMENTS && F::ONE_BARRIER && T::STAGES >= 3 && T::BK % 2 == 0,
                  "the prefetch loop needs double fragments, one barrier, 3 stages and an even BK");
    // The barrier sits before the LAST step of each slice, so the next slice's first fragments,
    // loaded right after it, hide their latency behind that step's FMAs.
    wait_copies<F, T::STAGES - 2>();  // slice 0 has landed
    __syncthreads();
    float a_frag[2][T::TM], b_frag[2][T::TN];
    load_fragments<T>(smem, smem + T::A_FLOATS, 0, a_off, b_off, a_frag[0], b_frag[0]);
    for (int kt = 0; kt < k_tiles; ++kt) {
      const float* as = smem + read_stage * T::STAGE_FLOATS;
#pragma unroll
      for (int k = 0; k < T::BK - 1; ++k) {
        load_fragments<T>(as, as + T::A_FLOATS, k + 1, a_off, b_off, a_frag[(k + 1) % 2],
                          b_frag[(k + 1) % 2]);
        outer_product<T>(a_frag[k % 2], b_frag[k % 2], acc);
      }
      // Slice kt+1 has landed, and slice kt-1's buffer is free for slice kt+STAGES-1.
      wait_copies<F, T::STAGES - 3>();
      __syncthreads();
      if (kt + T::STAGES - 1 < k_tiles) load(kt + T::STAGES - 1, write_stage);
      commit_copies<F>();
      read_stage = read_stage + 1 == T::STAGES ? 0 : read_stage + 1;
      write_stage = write_stage + 1 == T::STAGES ? 0 : write_stage + 1;
      if (kt + 1 < k_tiles) {
        const float* next = smem + read_stage * T::STAGE_FLOATS;
        load_fragments<T>(next, next + T::A_FLOATS, 0, a_off, b_off, a_frag[0], b_frag[0]);
      }
      outer_product<T>(a_frag[1], b_frag[1], acc);
    }
  } else {
    for (int kt = 0; kt < k_tiles; ++kt) {
      wait_copies<F, T::STAGES - 2>();  // my copies of slice kt have landed ...
      __syncthreads();  // ... and everyone's, and slice kt-1's buffer (write_stage) is free
      if (kt + T::STAGES - 1 < k_tiles) load(kt + T::STAGES - 1, write_stage);
      commit_copies<F>();
      const float* as = smem + read_stage * T::STAGE_FLOATS;
      compute_slice<T, F>(as, as + T::A_FLOATS, a_off, b_off, acc);
      if constexpr (!F::ONE_BARRIER) __syncthreads();  // ablation: stage 11's second barrier
      read_stage = read_stage + 1 == T::STAGES ? 0 : read_stage + 1;
      write_stage = write_stage + 1 == T::STAGES ? 0 : write_stage + 1;
    }
  }
  wait_copies<F, 0>();  // only empty groups remain; leave nothing in flight at exit
  store_c<T, VEC, EDGE>(c, row0 + a_off, col0 + b_off, acc);
}

template <class T, class F, bool VEC>
__global__ void __launch_bounds__(T::THREADS, F::LAUNCH_BOUNDS ? T::MIN_BLOCKS : 1)
    gemm_pipelined(Matrix a, Matrix b, Matrix c) {
  extern __shared__ float4 smem4[];  // float4: 16-byte alignment for cp.async and LDS.128
  float* smem = reinterpret_cast<float*>(smem4);
  const int tiles_m = (c.height + T::BM - 1) / T::BM;
  const int tiles_n = (c.width + T::BN - 1) / T::BN;
  const auto [row0, col0] =
      grouped_tile_origin(blockIdx.x, tiles_m, tiles_n, F::GROUP_M, T::BM, T::BN);
  if (row0 + T::BM <= c.height && col0 + T::BN <= c.width) {
    block_tile<T, F, VEC, false>(a, b, c, row0, col0, smem);
  } else {
    block_tile<T, F, VEC, true>(a, b, c, row0, col0, smem);
  }
}

using Launch = OperandPath (*)(Matrix a, Matrix b, Matrix c);

template <class T, class F = DefaultFeatures>
OperandPath launch(Matrix a, Matrix b, Matrix c) {
  // A is copied 4 bytes at a time (transposed): only B and C need 16-byte aligned rows.
  const OperandPath path = float4_path({b, c});
  if (c.empty()) return path;
  const auto kernel =
      path == OperandPath::sixteen_byte ? gemm_pipelined<T, F, true> : gemm_pipelined<T, F, false>;
  // A ring over 48 KiB must be asked for, on every launch since a cudaDeviceReset clears it.
  CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, T::SMEM_BYTES));
  // A 1D grid: the kernel maps block numbers to tiles itself (grouped_tile_origin).
  const long long tiles = static_cast<long long>((c.height + T::BM - 1) / T::BM) *
                          ((c.width + T::BN - 1) / T::BN);
  kernel<<<static_cast<unsigned>(tiles), T::THREADS, T::SMEM_BYTES>>>(a, b, c);
  CUDA_CHECK_LAUNCH();
  return path;
}

struct Candidate {
  const char* name;
  Launch launch;
  int shared_bytes;        // the ring's size per block
  int bm, bn, min_blocks;  // the block tile and the blocks per SM asked of __launch_bounds__
  double rate;             // GFLOP/s at 4096^3 on the H100 of the wave rule's choices; 0: not one
};

template <class T, class F = DefaultFeatures>
constexpr Candidate candidate(const char* name, double rate = 0) {
  return Candidate{name, launch<T, F>, T::SMEM_BYTES, T::BM, T::BN, T::MIN_BLOCKS, rate};
}

// The first is the default, and those with a rate the wave rule's choices, largest first
// (results/12_gpu_pipelined/search.md). _pf: with the cross-slice prefetch (README).
//                                                   BM   BN  BK  WM  WN  TM  TN thr st b/SM
using Default = Tiling<128, 128, 16, 32, 64, 8, 8, 256, 3, 2>;
const Candidate kCandidates[] = {
    candidate<Default>("128x128x16_w32x64_t8x8_256_s3_b2", 46548),
    candidate<Tiling<128, 128, 16, 64, 32, 8, 8, 256, 3, 2>>("128x128x16_w64x32_t8x8_256_s3_b2"),
    candidate<Tiling<128, 128, 16, 64, 32, 8, 8, 256, 4, 2>>("128x128x16_w64x32_t8x8_256_s4_b2"),
    candidate<Tiling<128, 128, 16, 32, 64, 8, 8, 256, 4, 2>>("128x128x16_w32x64_t8x8_256_s4_b2"),
    candidate<Tiling<128, 128, 16, 64, 32, 8, 8, 256, 2, 2>>("128x128x16_w64x32_t8x8_256_s2_b2"),
    candidate<Tiling<128, 128, 8, 64, 32, 8, 8, 256, 3, 2>>("128x128x8_w64x32_t8x8_256_s3_b2"),
    candidate<Tiling<128, 128, 8, 32, 64, 8, 8, 256, 3, 2>>("128x128x8_w32x64_t8x8_256_s3_b2"),
    candidate<Tiling<128, 128, 8, 64, 32, 8, 8, 256, 4, 2>>("128x128x8_w64x32_t8x8_256_s4_b2"),
    candidate<Tiling<128, 64, 16, 64, 32, 8, 8, 128, 3, 4>>("128x64x16_w64x32_t8x8_128_s3_b4"),
    candidate<Tiling<128, 64, 16, 64, 32, 8, 8, 128, 3, 4>, Prefetch>(
        "128x64x16_w64x32_t8x8_128_s3_b4_pf", 45872),
    candidate<Tiling<128, 64, 16, 64, 32, 8, 8, 128, 4, 4>>("128x64x16_w64x32_t8x8_128_s4_b4"),
    candidate<Tiling<128, 64, 8, 64, 32, 8, 8, 128, 3, 4>>("128x64x8_w64x32_t8x8_128_s3_b4"),
    candidate<Tiling<64, 64, 16, 64, 32, 8, 8, 64, 3, 8>>("64x64x16_w64x32_t8x8_64_s3_b8"),
    candidate<Tiling<64, 64, 16, 64, 32, 8, 8, 64, 4, 6>>("64x64x16_w64x32_t8x8_64_s4_b6"),
    candidate<Tiling<64, 64, 16, 64, 32, 8, 8, 64, 4, 6>, Prefetch>(
        "64x64x16_w64x32_t8x8_64_s4_b6_pf", 46202),
    candidate<Tiling<128, 256, 8, 64, 64, 8, 16, 256, 3, 1>>("128x256x8_w64x64_t8x16_256_s3_b1"),
    candidate<Tiling<256, 128, 8, 64, 64, 16, 8, 256, 3, 1>>("256x128x8_w64x64_t16x8_256_s3_b1"),
    candidate<Tiling<128, 128, 8, 64, 64, 8, 16, 128, 3, 2>>("128x128x8_w64x64_t8x16_128_s3_b2"),
};

//                                                   group async double one-barrier bounds prefetch
const NamedLaunch<Launch> kAblations[] = {
    {"none", launch<Default>},
    {"group-1", launch<Default, Features<1, true, true, true, true, false>>},
    {"plain-copies", launch<Default, Features<8, false, true, true, true, false>>},
    {"single-fragments", launch<Default, Features<8, true, false, true, true, false>>},
    {"two-barriers", launch<Default, Features<8, true, true, false, true, false>>},
    {"no-launch-bounds", launch<Default, Features<8, true, true, true, false, false>>},
    {"one-stage-fewer", launch<Tiling<128, 128, 16, 32, 64, 8, 8, 256, 2, 2>>},
    {"plus-prefetch", launch<Default, Prefetch>},
};

constexpr int kReservedSharedBytes = 1024;  // per block, sm_80+ (CUDA C++ Programming Guide)

}  // namespace

std::vector<std::string> pipelined_configs() { return config_names(kCandidates); }
std::vector<std::string> pipelined_ablations() { return config_names(kAblations); }

std::string pipelined_unfit_reason(const std::string& config) {
  const int bytes = find_config(kCandidates, config, "stage 12 has no tiling").shared_bytes;
  const int limit = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  if (bytes <= limit) return "";
  return "tiling " + config + " needs " + std::to_string(bytes) +
         " bytes of shared memory per block; this GPU allows " + std::to_string(limit);
}

std::string pipelined_config_for(int m, int n, int multiprocessors, int shared_bytes_per_block,
                                 int shared_bytes_per_sm) {
  // The README's wave rule: time ~ waves rounded up x blocks per SM x tile area / rate.
  const char* best = nullptr;
  double best_time = 0;
  for (const Candidate& tiling : kCandidates) {
    if (tiling.rate == 0 || tiling.shared_bytes > shared_bytes_per_block) continue;
    const int fit = shared_bytes_per_sm / (tiling.shared_bytes + kReservedSharedBytes);
    const int per_sm = std::min(tiling.min_blocks, fit);
    if (per_sm < 1) continue;
    const long long tiles =
        static_cast<long long>((m + tiling.bm - 1) / tiling.bm) * ((n + tiling.bn - 1) / tiling.bn);
    const long long wave = static_cast<long long>(multiprocessors) * per_sm;
    const long long waves = (tiles + wave - 1) / wave;
    if (best == nullptr && tiles >= 2 * wave) return tiling.name;  // the largest fills waves
    const double time = static_cast<double>(waves) * per_sm * tiling.bm * tiling.bn / tiling.rate;
    if (best == nullptr || time < best_time) {
      best = tiling.name;
      best_time = time;
    }
  }
  if (best == nullptr) throw UsageError("no tiling of stage 12 fits this GPU's shared memory");
  return best;
}

std::string pipelined_config_for(int m, int n) {
  return pipelined_config_for(m, n, device_attribute(cudaDevAttrMultiProcessorCount),
                              device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin),
                              device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
}

OperandPath launch_gemm_pipelined(const std::string& config, Matrix a, Matrix b, Matrix c) {
  check_gemm_shapes(a, b, c);
  const std::string name = config == "auto" ? pipelined_config_for(c.height, c.width) : config;
  if (const std::string reason = pipelined_unfit_reason(name); !reason.empty()) {
    throw UsageError(reason);
  }
  return find_config(kCandidates, name, "stage 12 has no tiling").launch(a, b, c);
}

OperandPath launch_gemm_pipelined_ablation(const std::string& ablation, Matrix a, Matrix b,
                                           Matrix c) {
  check_gemm_shapes(a, b, c);
  return find_config(kAblations, ablation, "stage 12 has no ablation").launch(a, b, c);
}

}  // namespace ladder
