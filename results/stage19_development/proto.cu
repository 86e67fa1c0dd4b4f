// Stream-K prototype on stage 18's kernel: data-parallel whole tiles first, then the rest of
// the multiply-accumulate iterations split evenly over the resident clusters; partial tiles
// fixed up in a fixed order through a workspace. Standalone timing against cuBLAS BF16.
#include "18_gpu_persistent_clusters/kernel.cu"

#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace ladder::hopper {
// D (64 x 64) += A (64 x 16) * B (16 x 64, N-major): the prototype's narrow tile.
__device__ inline void wgmma_m64n64k16(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b,
                                       int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\n"
      "setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
      "}, %32, %33, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}
}  // namespace ladder::hopper

namespace ladder {
namespace {

// Data-parallel tiles first (round-robin), then the rest either as Stream-K (even ranges of
// iterations) or split into `split` aligned k-segments per tile (units round-robin).
struct Schedule {
  int tiles, slices, clusters, dp_tiles;
  bool stream_k;
  long long sk_begin, sk_per;
  int sk_extra;
  int split;  // split-K: segments per remaining tile
};
__device__ inline long long sk_start(const Schedule& s, int g) {
  return s.sk_begin + static_cast<long long>(g) * s.sk_per + min(g, s.sk_extra);
}
struct Segment {
  int tile, k_begin, k_end, unit;  // unit: split-K's unit index (its workspace slot), else -1
};
struct Walk {
  const Schedule& s;
  int g, dp_t, unit;
  long long it, end;
  __device__ Walk(const Schedule& s_, int g_)
      : s(s_), g(g_), dp_t(g_), unit(g_), it(sk_start(s_, g_)), end(sk_start(s_, g_ + 1)) {}
  __device__ bool next(Segment& seg) {
    if (dp_t < s.dp_tiles) {
      seg = {dp_t, 0, s.slices, -1};
      dp_t += s.clusters;
      return true;
    }
    if (!s.stream_k) {
      if (unit >= (s.tiles - s.dp_tiles) * s.split) return false;
      const int split = unit % s.split;
      seg = {s.dp_tiles + unit / s.split, split * s.slices / s.split,
             (split + 1) * s.slices / s.split, unit};
      unit += s.clusters;
      return true;
    }
    if (it >= end) return false;
    const int tile = static_cast<int>(it / s.slices);
    const int kb = static_cast<int>(it - static_cast<long long>(tile) * s.slices);
    const int ke = static_cast<int>(min(static_cast<long long>(s.slices), kb + (end - it)));
    seg = {tile, kb, ke, -1};
    it += ke - kb;
    return true;
  }
};

// Stage 18's Config with another ring depth.
template <int BlockN, int ClusterM, int Slots, bool ShareA = false>
struct Sk : Config<128, BlockN, 64, ClusterM, 8, true> {
  using Base = Config<128, BlockN, 64, ClusterM, 8, true>;
  static constexpr int kSlots = Slots;
  static constexpr bool kShareA = ShareA;  // the cluster's two blocks side by side along N, sharing A
  static constexpr int kSharedBytes = kSwizzleAtomBytes + Slots * Base::kSlotBytes +
                                      Base::kConsumers * Base::kStagingBytes + 2 * Slots * 8;
  static_assert(kSharedBytes <= 232448, "too much shared memory");
};

template <class C, class = void>
struct ShareAOf : std::false_type {};
template <class C>
struct ShareAOf<C, std::void_t<decltype(C::kShareA)>> : std::bool_constant<C::kShareA> {};

// Stage 18's tile order, or (ShareA) clusters of two tiles side by side along N.
template <class Cfg>
struct SkOrder {
  TileOrder<Cfg> m_order;
  int tiles_m, cols;
  __device__ SkOrder(const Matrix& c)
      : m_order(c),
        tiles_m((c.height + Cfg::kBlockM - 1) / Cfg::kBlockM),
        cols(((c.width + Cfg::kBlockN - 1) / Cfg::kBlockN + 1) / 2) {}
  __device__ void origin(int t, std::uint32_t rank, int& row0, int& col0) const {
    if constexpr (!ShareAOf<Cfg>::value) {
      m_order.origin(t, rank, row0, col0);
    } else {
      const int per_group = Cfg::kGroupM * cols;
      const int first_row = t / per_group * Cfg::kGroupM;
      const int rows = min(tiles_m - first_row, Cfg::kGroupM);
      row0 = (first_row + t % per_group % rows) * Cfg::kBlockM;
      col0 = ((t % per_group / rows) * 2 + static_cast<int>(rank)) * Cfg::kBlockN;
    }
  }
};

template <int N>
__device__ inline void multiply_any(const unsigned char* a_strip, const unsigned char* b_slot,
                                    float (&acc)[N / 2], bool accumulate) {
  if constexpr (N == 64) {
#pragma unroll
    for (int k = 0; k < kSliceK / 16; ++k) {
      const std::uint64_t a = descriptor(reinterpret_cast<const bf16*>(a_strip) + k * 16, 16, kSwizzleAtomBytes);
      const std::uint64_t b = descriptor(reinterpret_cast<const bf16*>(b_slot) + k * 16 * 64, kBoxBytes, kSwizzleAtomBytes);
      wgmma_m64n64k16(acc, a, b, (accumulate || k > 0) ? 1 : 0);
    }
  } else {
    Bf16Operands::multiply<N>(a_strip, b_slot, acc, accumulate);
  }
}

__device__ inline int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ inline void store_release(int* p, int v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
}

template <class Cfg, bool TmaStore>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_stream_k(const __grid_constant__ CUtensorMap a_map,
                  const __grid_constant__ CUtensorMap b_map,
                  const __grid_constant__ CUtensorMap c_map, int k, Matrix c,
                  const Schedule sched, float4* workspace, int* flags) {
  using Ops = Bf16Operands;
  constexpr int kSlots = Cfg::kSlots;
  constexpr int kClusterM = Cfg::kClusterM;
  extern __shared__ unsigned char shared[];
  unsigned char* ring = align_to_swizzle(shared);
  unsigned char* staging = ring + kSlots * Cfg::kSlotBytes;
  std::uint64_t* full =
      reinterpret_cast<std::uint64_t*>(staging + Cfg::kConsumers * Cfg::kStagingBytes);
  std::uint64_t* empty = full + kSlots;
  const std::uint32_t rank = kClusterM > 1 ? rank_in_cluster() : 0;
  if (threadIdx.x == 0) {
    for (int slot = 0; slot < kSlots; ++slot) {
      barrier_init(&full[slot], 1);
      barrier_init(&empty[slot], Cfg::kConsumers * kClusterM);
    }
    barrier_init_fence();
  }
  if constexpr (kClusterM > 1) {
    cluster_sync();
  } else {
    __syncthreads();
  }
  const SkOrder<Cfg> order(c);
  const int cluster = blockIdx.x / kClusterM;
  const int slices = sched.slices;

  if (threadIdx.x / 128 == 0) {
    registers_decrease<Cfg::kProducerRegisters>();
    if (threadIdx.x == 0) {
      int it = 0;
      Walk walk(sched, cluster);
      Segment seg;
      while (walk.next(seg)) {
        int row0 = 0, col0 = 0;
        order.origin(seg.tile, rank, row0, col0);
        for (int s = seg.k_begin; s < seg.k_end; ++s, ++it) {
          const int slot = it % kSlots;
          if (it >= kSlots) barrier_wait(&empty[slot], (it / kSlots - 1) % 2);
          unsigned char* to = ring + slot * Cfg::kSlotBytes;
          barrier_expect_bytes(&full[slot], Cfg::kSlotBytes);
          if constexpr (ShareAOf<Cfg>::value) {
            // Each block loads half of A's rows and multicasts them; B is its own.
            tma_load_multicast(to + rank * (Cfg::kBlockM / 2) * kSliceRowBytes, &a_map, &full[slot],
                               s * Ops::kSliceK, row0 + static_cast<int>(rank) * Cfg::kBlockM / 2, 3);
#pragma unroll
            for (int box = 0; box < Cfg::kBlockN / 64; ++box) {
              const int2 at = Ops::b_box(s * Ops::kSliceK, col0 + box * 64);
              tma_load(to + Cfg::kSliceABytes + box * kBoxBytes, &b_map, &full[slot], at.x, at.y);
            }
            continue;
          }
          tma_load(to, &a_map, &full[slot], s * Ops::kSliceK, row0);
#pragma unroll
          for (int box = static_cast<int>(rank); box < Cfg::kBlockN / 64; box += kClusterM) {
            unsigned char* box_to = to + Cfg::kSliceABytes + box * kBoxBytes;
            const int2 at = Ops::b_box(s * Ops::kSliceK, col0 + box * 64);
            if constexpr (kClusterM > 1) {
              tma_load_multicast(box_to, &b_map, &full[slot], at.x, at.y, (1 << kClusterM) - 1);
            } else {
              tma_load(box_to, &b_map, &full[slot], at.x, at.y);
            }
          }
        }
      }
    }
  } else {
    registers_increase<Cfg::kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
    auto release = [&](int it) {
      if (thread < kClusterM) {
        if constexpr (kClusterM > 1) {
          barrier_arrive_in_block(&empty[it % kSlots], static_cast<std::uint32_t>(thread));
        } else {
          barrier_arrive(&empty[it % kSlots]);
        }
      }
    };
    constexpr int kStrips = Cfg::kConsumerRows / 64;
    constexpr int kVectors = kStrips * Cfg::kBlockN / 8;  // float4s a thread holds
    float acc[kStrips][Cfg::kBlockN / 2];
    auto partial_of = [&](int g) {  // this consumer's partial slot: cluster (Stream-K) or unit (split-K) g
      return ((g * kClusterM + static_cast<int>(rank)) * Cfg::kConsumers + consumer);
    };
    int it = 0;
    Walk walk(sched, cluster);
    Segment seg;
    while (walk.next(seg)) {
      int row0 = 0, col0 = 0;
      order.origin(seg.tile, rank, row0, col0);
      for (int s = seg.k_begin; s < seg.k_end; ++s, ++it) {
        const unsigned char* slot = ring + it % kSlots * Cfg::kSlotBytes;
        barrier_wait(&full[it % kSlots], it / kSlots % 2);
        const unsigned char* a = slot + consumer * Cfg::kConsumerRows * kSliceRowBytes;
        wgmma_fence();
#pragma unroll
        for (int strip = 0; strip < kStrips; ++strip) {
          multiply_any<Cfg::kBlockN>(a + strip * 64 * kSliceRowBytes, slot + Cfg::kSliceABytes,
                                     acc[strip], s > seg.k_begin);
        }
        wgmma_commit();
        wgmma_wait<1>();
        if (s > seg.k_begin) release(it - 1);
      }
      wgmma_wait<0>();
      release(it - 1);
      const bool whole = seg.k_begin == 0 && seg.k_end == slices;
      // Stream-K: the tile's first part owns it; split-K: its last split.
      const bool contributes = sched.stream_k ? seg.k_begin != 0 : seg.k_end != slices;
      if (!whole && contributes) {
        const int mine = partial_of(sched.stream_k ? cluster : seg.unit);
        float4* out = workspace + static_cast<long long>(mine) * kVectors * 128;
#pragma unroll
        for (int strip = 0; strip < kStrips; ++strip) {
#pragma unroll
          for (int v = 0; v < Cfg::kBlockN / 8; ++v) {
            out[(strip * Cfg::kBlockN / 8 + v) * 128 + thread] =
                make_float4(acc[strip][4 * v], acc[strip][4 * v + 1], acc[strip][4 * v + 2],
                            acc[strip][4 * v + 3]);
          }
        }
        __threadfence();
        sync_threads(1 + consumer, 128);
        if (thread == 0) store_release(&flags[mine], 1);
        continue;
      }
      if (!whole) {
        const long long tile_end = static_cast<long long>(seg.tile + 1) * slices;
        const int first = sched.stream_k ? cluster + 1 : seg.unit - sched.split + 1;
        const int count = sched.stream_k ? sched.clusters : seg.unit;
        for (int g = first; g < count && (!sched.stream_k || sk_start(sched, g) < tile_end); ++g) {
          const int from = partial_of(g);
          if (thread == 0) {
            while (load_acquire(&flags[from]) == 0) {
            }
            flags[from] = 0;  // ready for the next launch
          }
          sync_threads(1 + consumer, 128);
          const float4* in = workspace + static_cast<long long>(from) * kVectors * 128;
#pragma unroll
          for (int strip = 0; strip < kStrips; ++strip) {
#pragma unroll
            for (int v = 0; v < Cfg::kBlockN / 8; ++v) {
              const float4 p = __ldcg(&in[(strip * Cfg::kBlockN / 8 + v) * 128 + thread]);
              acc[strip][4 * v] += p.x;
              acc[strip][4 * v + 1] += p.y;
              acc[strip][4 * v + 2] += p.z;
              acc[strip][4 * v + 3] += p.w;
            }
          }
        }
      }
#pragma unroll
      for (int strip = 0; strip < kStrips; ++strip) {
        const int strip_row = row0 + consumer * Cfg::kConsumerRows + strip * 64;
        if constexpr (TmaStore) {
          store_strip_through_tma<Cfg::kBlockN>(&c_map, staging + consumer * Cfg::kStagingBytes,
                                                acc[strip], strip_row, col0, thread,
                                                1 + consumer);
        } else {
          store_strip<Cfg::kBlockN>(c, acc[strip], strip_row, col0, thread);
        }
      }
    }
    if constexpr (TmaStore) {
      if (thread == 0) bulk_wait_done();
    }
  }
  if constexpr (kClusterM > 1) cluster_sync();
}

float4* g_workspace = nullptr;
int* g_flags = nullptr;
size_t g_ws_bytes = 0, g_flag_count = 0;

// mode: 0 Stream-K over all tiles; 1 Stream-K after whole waves but the last; 2 split-K tail
// (whole waves data-parallel, the remainder split so its units fill one wave); 3+N: every tile
// split N ways.
template <class Cfg>
void launch_sk(MatrixBf16 a, MatrixBf16 b, Matrix c, int mode) {
  auto kernel = gemm_stream_k<Cfg, true>;
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  Cfg::kSharedBytes));
  static int clusters = 0;
  if (clusters == 0) {
    Launch<Cfg> one(Cfg::kClusterM);
    CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &one.config));
  }
  int tiles = static_cast<int>(cluster_tiles<Cfg>(c));
  if constexpr (ShareAOf<Cfg>::value) {
    const int tiles_n = (c.width + Cfg::kBlockN - 1) / Cfg::kBlockN;
    tiles = (c.height + Cfg::kBlockM - 1) / Cfg::kBlockM * ((tiles_n + 1) / 2);
  }
  Schedule s{};
  s.tiles = tiles;
  s.slices = (a.width + 63) / 64;
  s.clusters = clusters;
  s.split = 1;
  s.stream_k = mode <= 1;
  if (mode == 0) {
    s.dp_tiles = 0;
  } else if (mode == 1) {
    const int waves = tiles / clusters;
    s.dp_tiles = tiles % clusters == 0 ? tiles : std::max(0, waves - 1) * clusters;
  } else if (mode == 2) {
    s.dp_tiles = tiles / clusters * clusters;
    const int rest = tiles - s.dp_tiles;
    s.split = rest ? std::max(1, std::min(clusters / rest, std::min(s.slices, 4))) : 1;
  } else if (mode == 8) {
    s.dp_tiles = tiles;
  } else {
    s.dp_tiles = 0;
    s.split = std::min(mode - 3, s.slices);
  }
  s.sk_begin = static_cast<long long>(s.dp_tiles) * s.slices;
  const long long iters = s.stream_k ? static_cast<long long>(tiles - s.dp_tiles) * s.slices : 0;
  s.sk_per = iters / clusters;
  s.sk_extra = static_cast<int>(iters % clusters);
  const size_t units = s.stream_k ? clusters : static_cast<size_t>(tiles - s.dp_tiles) * s.split;
  const size_t slots = std::max<size_t>(1, units * Cfg::kClusterM * Cfg::kConsumers);
  const size_t ws = slots * Cfg::kConsumerRows * Cfg::kBlockN * sizeof(float);
  if (ws > g_ws_bytes) {
    if (g_workspace) CUDA_CHECK(cudaFree(g_workspace));
    CUDA_CHECK(cudaMalloc(&g_workspace, ws));
    g_ws_bytes = ws;
  }
  if (slots > g_flag_count) {
    if (g_flags) CUDA_CHECK(cudaFree(g_flags));
    CUDA_CHECK(cudaMalloc(&g_flags, slots * sizeof(int)));
    CUDA_CHECK(cudaMemset(g_flags, 0, slots * sizeof(int)));
    g_flag_count = slots;
  }
  const CUtensorMap a_map =
      make_tensor_map_2d(a, 64, ShareAOf<Cfg>::value ? Cfg::kBlockM / 2 : Cfg::kBlockM);
  const CUtensorMap b_map = Bf16Operands::b_map(b);
  const CUtensorMap c_map = make_store_tensor_map_2d(c, 32, 64);
  Launch<Cfg> grid(static_cast<long long>(clusters) * Cfg::kClusterM);
  CUDA_CHECK(cudaLaunchKernelEx(&grid.config, kernel, a_map, b_map, c_map, a.width, c, s,
                                g_workspace, g_flags));
}

}  // namespace
}  // namespace ladder

using namespace ladder;

__global__ void fill(bf16* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < n; i += 256LL * gridDim.x) {
    unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;
    x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    p[i] = __float2bfloat16((x & 0xFFFF) / 32768.0f - 1.0f);
  }
}

int main(int argc, char** argv) {
  struct Shape { const char* name; int m, n, k; };
  std::vector<Shape> shapes = {
      {"articles", 1920, 1280, 1024}, {"1024^3", 1024, 1024, 1024}, {"2048^3", 2048, 2048, 2048},
      {"4096^3", 4096, 4096, 4096}, {"4040^3", 4040, 4040, 4040}, {"6144^3", 6144, 6144, 6144},
      {"8192^3", 8192, 8192, 8192}, {"QKV512", 512, 6144, 4096}, {"O512", 512, 4096, 4096},
      {"GU512", 512, 28672, 4096}, {"down512", 512, 4096, 14336}, {"QKV2048", 2048, 6144, 4096},
      {"O2048", 2048, 4096, 4096}, {"GU2048", 2048, 28672, 4096}, {"down2048", 2048, 4096, 14336},
      {"QKV8192", 8192, 6144, 4096}, {"O8192", 8192, 4096, 4096}, {"GU8192", 8192, 28672, 4096},
      {"down8192", 8192, 4096, 14336}, {"1000x4096", 1000, 4096, 4096}, {"3000x11008", 3000, 11008, 4096}};
  cublasHandle_t handle;
  cublasCreate(&handle);
  void* flush = nullptr;
  const size_t flush_bytes = 256u << 20;
  CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  printf("shape,variant,ms,tflops,pct_cublas,max_rel_err,repeatable\n");
  const char* only_shape = argc > 1 ? argv[1] : nullptr;
  const std::string only_variants = argc > 2 ? std::string(",") + argv[2] + "," : "";
  const int reps = getenv("REPS") ? atoi(getenv("REPS")) : 15;
  for (const Shape& sh : shapes) {
    if (only_shape && std::string(",") .append(only_shape).append(",").find(std::string(",") + sh.name + ",") == std::string::npos) continue;
    bf16 *a, *b;
    float *c, *ref;
    const long long an = 1LL * sh.m * sh.k, bn = 1LL * sh.k * sh.n, cn = 1LL * sh.m * sh.n;
    CUDA_CHECK(cudaMalloc(&a, an * 2));
    CUDA_CHECK(cudaMalloc(&b, bn * 2));
    CUDA_CHECK(cudaMalloc(&c, cn * 4));
    CUDA_CHECK(cudaMalloc(&ref, cn * 4));
    fill<<<1024, 256>>>(a, an, 1);
    fill<<<1024, 256>>>(b, bn, 2);
    MatrixBf16 A{sh.k, sh.m, sh.k, a}, B{sh.n, sh.k, sh.n, b};
    Matrix C{sh.n, sh.m, sh.n, c};
    const float one = 1, zero = 0;
    auto cublas = [&](float* out) {
      cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, sh.n, sh.m, sh.k, &one, b, CUDA_R_16BF, sh.n,
                   a, CUDA_R_16BF, sh.k, &zero, out, CUDA_R_32F, sh.n, CUBLAS_COMPUTE_32F,
                   CUBLAS_GEMM_DEFAULT);
    };
    cublas(ref);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> h_ref(cn), h_c(cn), h_c2(cn);
    CUDA_CHECK(cudaMemcpy(h_ref.data(), ref, cn * 4, cudaMemcpyDeviceToHost));
    double ref_max = 0;
    for (float x : h_ref) ref_max = std::max(ref_max, (double)std::fabs(x));
    struct Variant { const char* name; std::function<void()> run; };
    using W2 = Config<128, 256, 64, 2, 8, true>;
    using W1 = Config<128, 256, 64, 1, 8, true>;
    using N2 = Config<128, 192, 64, 2, 8, true>;
    using S1 = Config<128, 128, 64, 1, 8, true>;
    using S2 = Config<128, 128, 64, 2, 8, true>;
    std::vector<Variant> variants = {
        {"cublas", [&] { cublas(c); }},
        {"s18_by_size", [&] { launch_gemm_persistent("by_size", A, B, C); }},
        {"dp_128_c1_s4", [&] { launch<Bf16Operands, S1>(A, B, C); }},
        {"dpA_128_s4", [&] { launch_sk<Sk<128, 2, 4, true>>(A, B, C, 8); }},
        {"dpA_128_s6", [&] { launch_sk<Sk<128, 2, 6, true>>(A, B, C, 8); }},
        {"dp_64_c1_s8", [&] { launch_sk<Sk<64, 1, 8>>(A, B, C, 8); }},
        {"dpA_64_s8", [&] { launch_sk<Sk<64, 2, 8, true>>(A, B, C, 8); }},
        {"dpA_256_s4", [&] { launch_sk<Sk<256, 2, 4, true>>(A, B, C, 8); }},
        {"tailA_256_s4", [&] { launch_sk<Sk<256, 2, 4, true>>(A, B, C, 2); }},
        {"tail_256_c2", [&] { launch_sk<W2>(A, B, C, 2); }},
        {"split2_256_c2", [&] { launch_sk<W2>(A, B, C, 5); }},
    };
    double cublas_ms = 0;
    for (auto& v : variants) {
      if (!only_variants.empty() && strcmp(v.name, "cublas") != 0 &&
          only_variants.find(std::string(",") + v.name + ",") == std::string::npos) continue;
      v.run();
      v.run();
      CUDA_CHECK(cudaDeviceSynchronize());
      CUDA_CHECK(cudaMemcpy(h_c.data(), c, cn * 4, cudaMemcpyDeviceToHost));
      double err = 0;
      for (long long i = 0; i < cn; ++i) err = std::max(err, (double)std::fabs(h_c[i] - h_ref[i]));
      std::vector<float> times;
      for (int r = 0; r < reps; ++r) {
        CUDA_CHECK(cudaMemsetAsync(flush, r, flush_bytes));
        cudaEventRecord(e0);
        v.run();
        cudaEventRecord(e1);
        CUDA_CHECK(cudaEventSynchronize(e1));
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        times.push_back(ms);
      }
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(h_c2.data(), c, cn * 4, cudaMemcpyDeviceToHost));
      const bool same = std::memcmp(h_c.data(), h_c2.data(), cn * 4) == 0;
      std::sort(times.begin(), times.end());
      const double ms = times[times.size() / 2];
      if (!strcmp(v.name, "cublas")) cublas_ms = ms;
      printf("%s,%s,%.4f,%.1f,%.1f,%.2e,%s\n", sh.name, v.name, ms,
             2.0 * sh.m * sh.n * sh.k / ms / 1e9, 100 * cublas_ms / ms, err / ref_max,
             same ? "yes" : "NO");
      fflush(stdout);
    }
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(ref);
  }
  return 0;
}
