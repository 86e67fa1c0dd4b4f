#include "18_gpu_persistent_clusters/kernel.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "08_transpose_padded/kernel.hpp"
#include "12_gpu_pipelined/kernel.hpp"
#include "common/hopper/launch.hpp"
#include "common/hopper/persistent.cuh"
#include "18_gpu_persistent_clusters/tf32_swapped.hpp"
#include "common/config_table.hpp"
#include "common/cuda_check.hpp"
#include "common/errors.hpp"
#include "common/hopper/cluster.cuh"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/tma.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/tensor_cores.hpp"
#include "common/tensor_map.hpp"
#include "common/tensor_map_fp32.hpp"

namespace ladder {
namespace {

using namespace hopper;
using namespace persistent;

// wgmma_k16 (common/hopper/warpgroup.cuh) for TF32 operands: 8 deep, A and B both K-major.
template <int N>
__device__ inline void wgmma_k8_tf32(float (&d)[N / 2], std::uint64_t a, std::uint64_t b,
                                     int accumulate) {
  static_assert(N == 192 || N == 256, "scripts/wgmma_wrappers.py writes TF32 n192 and n256");
  if constexpr (N == 192) wgmma_m64n192k8_tf32(d, a, b, accumulate);
  if constexpr (N == 256) wgmma_m64n256k8_tf32(d, a, b, accumulate);
}

// multiply_slice (warpgroup.cuh) for the TF32 variant: a slice is 32 floats deep (the same
// 128-byte rows), and B^T's slot is K-major like A's, so both descriptors step 32 bytes along
// the rows (four k8 steps) with 8-row groups 1024 bytes apart.
template <int N>
__device__ inline void multiply_slice_tf32(const float* a_strip, const float* b_t_slot,
                                           float (&acc)[N / 2], bool accumulate) {
#pragma unroll
  for (int k = 0; k < kSliceFloats / 8; ++k) {
    const std::uint64_t a = descriptor(a_strip + k * 8, 16, kSwizzleAtomBytes);
    const std::uint64_t b = descriptor(b_t_slot + k * 8, 16, kSwizzleAtomBytes);
    wgmma_k8_tf32<N>(acc, a, b, (accumulate || k > 0) ? 1 : 0);
  }
}

// What the TF32 variant (FP32 users) multiplies: A and B^T, both K-major, since wgmma reads TF32
// from shared memory only K-major (it has no transpose for TF32); B^T is B transposed by stage
// 08's kernel. A slice is 128 bytes deep as BF16's (32 floats: one line of the 128-byte
// swizzle), and a box of B^T 64 such lines (8 KB), so the ring, the barriers and the byte
// counts are the same as for Bf16Operands (persistent.cuh).
struct Tf32Operands : RowsOfA {
  using View = Matrix;
  static constexpr int kSliceK = kSliceFloats;  // 32 floats
  // B^T's boxes: 32 K-columns x 64 rows (64 columns of B), at (column k0, row n) of B^T.
  static CUtensorMap b_map(const Matrix& b_t) { return make_tensor_map_2d(b_t, kSliceK, 64); }
  __device__ static int2 b_box(int k0, int n) { return make_int2(k0, n); }
  template <int N>
  __device__ static void multiply(const unsigned char* a_strip, const unsigned char* b_slot,
                                  float (&acc)[N / 2], bool accumulate) {
    multiply_slice_tf32<N>(reinterpret_cast<const float*>(a_strip),
                           reinterpret_cast<const float*>(b_slot), acc, accumulate);
  }
};

template <class Ops, class Cfg, bool TmaStore>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_persistent(const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map,
                    const __grid_constant__ CUtensorMap c_map, int k, Matrix c) {
  constexpr int kSlots = Cfg::kSlots;
  constexpr int kClusterM = Cfg::kClusterM;
  extern __shared__ unsigned char shared[];
  const SharedLayout<Cfg> layout(shared);  // persistent.cuh
  const std::uint32_t rank = kClusterM > 1 ? rank_in_cluster() : 0;
  init_barriers(layout);

  const TileOrder<Cfg> order(c);
  const int cluster = blockIdx.x / kClusterM;
  const int step = Cfg::kPersistent ? gridDim.x / kClusterM : order.count();
  const int slices = (k + Ops::kSliceK - 1) / Ops::kSliceK;

  if (threadIdx.x / 128 == 0) {
    // Producer: the ring runs on across tiles, so the next tile's slices load while the
    // consumers store this one (load_tiles).
    registers_decrease<kProducerRegisters>();
    load_tiles<Ops>(layout, &a_map, &b_map, order, cluster, step, slices, rank);
  } else {
    // Consumers: as stage 17's, tile after tile; slots are handed back to every block of the
    // cluster (thread r arrives on rank r's barrier).
    registers_increase<kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
    auto release = [&](int it) { release_slot(layout, it, thread); };
    constexpr int kStrips = Cfg::kConsumerRows / 64;
    float acc[kStrips][Cfg::kBlockN / 2];
    int it = 0;
    for (int t = cluster; t < order.count(); t += step) {
      const auto [row0, col0] = order.origin(t, rank);
      for (int s = 0; s < slices; ++s, ++it) {
        const unsigned char* slot = layout.ring + it % kSlots * Cfg::kSlotBytes;
        barrier_wait(&layout.full[it % kSlots], it / kSlots % 2);
        const unsigned char* a = slot + consumer * Cfg::kConsumerRows * kSliceRowBytes;
        wgmma_fence();
#pragma unroll
        for (int strip = 0; strip < kStrips; ++strip) {
          Ops::template multiply<Cfg::kBlockN>(a + strip * 64 * kSliceRowBytes,
                                               slot + Cfg::kSliceABytes, acc[strip], s > 0);
        }
        wgmma_commit();
        wgmma_wait<1>();
        if (s > 0) release(it - 1);
      }
      wgmma_wait<0>();
      release(it - 1);
      // Store, while the producer already loads the next tile's first slices.
#pragma unroll
      for (int strip = 0; strip < kStrips; ++strip) {
        const int strip_row = row0 + consumer * Cfg::kConsumerRows + strip * 64;
        if constexpr (TmaStore) {
          store_strip_through_tma<Cfg::kBlockN>(&c_map,
                                                layout.staging + consumer * kStagingBytes,
                                                acc[strip], strip_row, col0, thread,
                                                1 + consumer);
        } else {
          store_strip<Cfg::kBlockN>(c, acc[strip], strip_row, col0, thread);
        }
      }
    }
    if constexpr (TmaStore) {
      if (thread == 0) bulk_wait_done();  // the block's last stores have reached C
    }
  }
  // No block leaves while another of its cluster may still arrive on its barriers.
  if constexpr (kClusterM > 1) cluster_sync();
}

// As many clusters as the GPU holds at once (persistent.cuh), for this stage's kernel.
template <class Ops, class Cfg>
int resident_clusters() {
  return resident_clusters_of<Cfg, gemm_persistent<Ops, Cfg, Cfg::kTmaStore>>();
}

// One cluster per tile, or (persistent) as many as fit at once. With even rounds, only as many
// of those as finish in the same number of rounds of tiles, so that the clusters' shares differ
// by at most one tile: at 4096^3, 256 cluster tiles run as 64 clusters of 4 tiles rather than
// 66 of which 8 take 3. The last round ends no sooner either way, and the 64 tiles a round then covers are
// 8 whole columns of one group of the tile order: 1.0-1.8% faster at 4096^3 with 9.9% fewer
// bytes read from DRAM (results/18_gpu_persistent_clusters/bench.txt and
// profile_even_rounds_4096.md there).
template <class Ops, class Cfg>
long long clusters_to_launch(const Matrix& c) {
  const long long tiles = cluster_tiles<Cfg>(c);
  if constexpr (!Cfg::kPersistent) return tiles;
  const long long fit = std::min<long long>(resident_clusters<Ops, Cfg>(), tiles);
  if (!Cfg::kEvenRounds || fit == 0) return fit;  // fit == 0: no tiles (the launchers return first)
  return even_rounds_clusters(tiles, fit);
}

// C through TMA stores where it allows them (allows_tma_store) and the variant does, else each
// thread's float2 / float stores (store_strip). b is B (BF16) or B^T (TF32).
template <class Ops, class Cfg>
void launch(typename Ops::View a, typename Ops::View b, Matrix c) {
  const bool tma_store = Cfg::kTmaStore && allows_tma_store(c);
  // Only a Cfg with the TMA store builds that kernel: an ablation without it has one kernel.
  auto kernel = gemm_persistent<Ops, Cfg, false>;
  if constexpr (Cfg::kTmaStore) {
    if (tma_store) kernel = gemm_persistent<Ops, Cfg, true>;
  }
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  Cfg::kSharedBytes));
  const CUtensorMap a_map = make_tensor_map_2d(a, Ops::kSliceK, Cfg::kBlockM);
  const CUtensorMap b_map = Ops::b_map(b);
  // Without the TMA store the kernel never reads c_map; A's map stands in for it.
  const CUtensorMap c_map = tma_store ? make_store_tensor_map_2d(c, 32, 64) : a_map;
  Launch<Cfg> grid(clusters_to_launch<Ops, Cfg>(c) * Cfg::kClusterM);
  CUDA_CHECK(cudaLaunchKernelEx(&grid.config, kernel, a_map, b_map, c_map, a.width, c));
}

static_assert(!std::is_copy_constructible_v<Launch<Wide>> &&
                  !std::is_move_constructible_v<Launch<Wide>>,
              "a Launch's config points at its own cluster_shape: a copy would dangle");

// Waves x tile width, a proxy for a tiling's run time: a partly filled last wave counts as a
// full one, and a wave of wider tiles takes proportionally longer.
template <class Ops, class Cfg>
long long wave_width(const Matrix& c) {
  const long long resident = resident_clusters<Ops, Cfg>();
  return (cluster_tiles<Cfg>(c) + resident - 1) / resident * Cfg::kBlockN;
}

// The default picks its tiling per problem, as libraries do, by two rules measured on the
// H100 (results/18_gpu_persistent_clusters/search.md). Clusters pay only past one wave: where
// every tile of 128 x 256 has its own SM at once (2048^3, the articles' problem) the blocks
// gain nothing from sharing B and lose to waiting for each other. And 192-wide tiles only
// where they shorten waves x width by at least 10%: they fill a wave better, but ran 1.6%
// slower than 256-wide ones at 8192^3, so 4096^3 and 8192^3 keep 256. The transposing TF32
// variants use the same rules: their slots, tiles and waves are the same (the swapped default
// takes only the first, tf32_swapped.cu).
template <class Ops, class W, class N>
bool narrow_is_shorter(const Matrix& c) {
  return 10 * wave_width<Ops, N>(c) < 9 * wave_width<Ops, W>(c);
}

// The default's choice for c: clusters or not, 192 or 256 wide.
struct Tiling {
  bool clusters;
  bool narrow;
};
template <class Ops>
Tiling best_tiling(const Matrix& c) {
  const bool one_wave = cluster_tiles<WideAlone>(c) <= resident_clusters<Ops, WideAlone>();
  if (one_wave) return {false, narrow_is_shorter<Ops, WideAlone, NarrowAlone>(c)};
  return {true, narrow_is_shorter<Ops, Wide, Narrow>(c)};
}

template <class Ops>
void launch_best(typename Ops::View a, typename Ops::View b, Matrix c) {
  const Tiling tiling = best_tiling<Ops>(c);
  if (tiling.clusters) {
    tiling.narrow ? launch<Ops, Narrow>(a, b, c) : launch<Ops, Wide>(a, b, c);
  } else {
    tiling.narrow ? launch<Ops, NarrowAlone>(a, b, c) : launch<Ops, WideAlone>(a, b, c);
  }
}

// The first is the default; each other one changes one thing
// (results/18_gpu_persistent_clusters/search.md).
const HopperVariant kVariants[] = {
    {"by_size", launch_best<Bf16Operands>},
    {"128x256_c2_g8", launch<Bf16Operands, Wide>},
    {"128x192_c2_g8", launch<Bf16Operands, Narrow>},
    {"128x192_c1_g8", launch<Bf16Operands, NarrowAlone>},
    {"128x256_c2_g8_direct_store",
     launch<Bf16Operands, Config<128, 256, 64, 2, 8, true, false>>},
    {"128x256_c2_g8_uneven", launch<Bf16Operands, Config<128, 256, 64, 2, 8, true, true, false>>},
    {"128x256_c1_g8", launch<Bf16Operands, WideAlone>},                             // no cluster
    {"128x256_c2_g1", launch<Bf16Operands, Config<128, 256, 64, 2, 1, true>>},      // row order
    {"128x256_c2_g8_tiled", launch<Bf16Operands, Config<128, 256, 64, 2, 8, false>>},  // not persistent
    {"256x128_c2_g8", launch<Bf16Operands, Config<256, 128, 128, 2, 8, true>>},
};

// A TF32 variant. Those that transpose B multiply A by B^T (b is B^T, written by stage 08's
// kernel first); the swapped ones multiply A by B as given (tf32_swapped.cu).
struct Tf32Variant {
  const char* name;
  void (*launch)(Matrix a, Matrix b, Matrix c);
  bool transposes_b;
};

// TF32: the default, its tilings, and the ablations that change the most, the first of them
// the transpose of B.
const Tf32Variant kTf32Variants[] = {
    {"by_size",
     [](Matrix a, Matrix b, Matrix c) { launch_tf32_swapped(SwappedTiling::by_size, a, b, c); },
     false},
    {"swapped_128x256_c2_g8",
     [](Matrix a, Matrix b, Matrix c) { launch_tf32_swapped(SwappedTiling::pairs, a, b, c); },
     false},
    {"swapped_128x256_c1_g8",
     [](Matrix a, Matrix b, Matrix c) { launch_tf32_swapped(SwappedTiling::alone, a, b, c); },
     false},
    {"transposed_by_size", launch_best<Tf32Operands>, true},
    {"transposed_128x256_c2_g8", launch<Tf32Operands, Wide>, true},
    {"transposed_128x256_c2_g8_uneven",
     launch<Tf32Operands, Config<128, 256, 64, 2, 8, true, true, false>>, true},
    {"transposed_128x192_c2_g8", launch<Tf32Operands, Narrow>, true},
    {"transposed_128x192_c1_g8", launch<Tf32Operands, NarrowAlone>, true},
    {"transposed_128x256_c1_g8", launch<Tf32Operands, WideAlone>, true},  // no cluster
};

// A (m x k), B^T (n x k) and C (m x n), and B^T's rows where TMA can read them: the workspace is
// the caller's, and a stride that TMA cannot read is the caller's mistake, not a reason to run
// eight times slower.
void check_tf32_operands(const Matrix& a, const Matrix& b_t, const Matrix& c) {
  check_view(a);
  check_view(b_t);
  check_view(c);
  if (a.height != c.height || b_t.height != c.width || a.width != b_t.width) {
    throw std::invalid_argument(
        "stage 18 TF32: A (" + std::to_string(a.height) + "x" + std::to_string(a.width) +
        "), B^T (" + std::to_string(b_t.height) + "x" + std::to_string(b_t.width) + ") and C (" +
        std::to_string(c.height) + "x" + std::to_string(c.width) +
        ") must be m x k, n x k and m x n");
  }
  if (!allows_float4(b_t)) {
    throw std::invalid_argument(
        "stage 18 TF32: the B^T workspace needs 16-byte-aligned rows (allows_float4); "
        "transposed_b_stride(k) gives rows of whole 128-byte lines");
  }
}

}  // namespace

std::vector<std::string> persistent_configs() { return config_names(kVariants); }

std::string persistent_default_tiling(Matrix c) {
  const Tiling tiling = best_tiling<Bf16Operands>(c);
  const std::string width = tiling.narrow ? "128x192" : "128x256";
  return width + (tiling.clusters ? "_c2_g8" : "_c1_g8");
}

OperandPath launch_gemm_persistent(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c) {
  return launch_hopper_variant(find_config(kVariants, config, "stage 18 has no variant"), a, b,
                               c);
}

std::vector<std::string> persistent_tf32_configs() { return config_names(kTf32Variants); }

std::vector<std::string> persistent_tf32_transposing_configs() {
  std::vector<std::string> names;
  for (const Tf32Variant& variant : kTf32Variants) {
    if (variant.transposes_b) names.emplace_back(variant.name);
  }
  return names;
}

int transposed_b_stride(int k) { return (k + 31) / 32 * 32; }

OperandPath tf32_path(Matrix a, Matrix b, Matrix c) {
  const bool empty = a.width == 0 || a.height == 0 || b.width == 0;
  return !empty && allows_float4(a) ? OperandPath::tma : pipelined_path(a, b, c);
}

OperandPath launch_gemm_persistent_tf32(const std::string& config, Matrix a, Matrix b,
                                        Matrix b_t, Matrix c) {
  const auto& variant = find_config(kTf32Variants, config, "stage 18 TF32 has no variant");
  check_gemm_shapes(a, b, c);
  check_tf32_operands(a, b_t, c);
  require_hopper();
  if (tf32_path(a, b, c) != OperandPath::tma) return launch_gemm_pipelined("auto", a, b, c);
  if (!variant.transposes_b && allows_float4(b)) {
    variant.launch(a, b, c);
    return OperandPath::tma;
  }
  // A swapped variant whose B allows no tensor map takes the transposing default: B^T is
  // written with 128-byte rows whatever B's stride.
  launch_transpose_padded(b, b_t, 32, 8);
  (variant.transposes_b ? variant.launch : launch_best<Tf32Operands>)(a, b_t, c);
  return OperandPath::tma;
}

void launch_gemm_persistent_tf32_transposed(const std::string& config, Matrix a, Matrix b_t,
                                            Matrix c) {
  const auto& variant = find_config(kTf32Variants, config, "stage 18 TF32 has no variant");
  if (!variant.transposes_b) {
    throw std::invalid_argument("stage 18 TF32: " + config +
                                " multiplies B as given; the product from B^T takes a variant "
                                "that transposes B (persistent_tf32_transposing_configs)");
  }
  check_tf32_operands(a, b_t, c);
  require_hopper();
  if (c.empty()) return;
  if (a.width == 0) {  // K = 0: C = 0, the empty sums, as every other launcher writes them
    CUDA_CHECK(cudaMemset2D(c.data, c.stride * sizeof(float), 0, c.width * sizeof(float),
                            c.height));
    return;
  }
  if (!allows_float4(a)) {  // no tensor map of A, and stage 12's fallback would need B itself
    throw std::invalid_argument("stage 18 TF32 with B^T given: A needs 16-byte-aligned rows");
  }
  variant.launch(a, b_t, c);
}

}  // namespace ladder
