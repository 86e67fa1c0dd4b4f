#include "18_gpu_persistent_clusters/kernel.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "08_transpose_padded/kernel.hpp"
#include "12_gpu_pipelined/kernel.hpp"
#include "16_gpu_tma_wgmma/hopper_launch.hpp"
#include "common/config_table.hpp"
#include "common/cuda_check.hpp"
#include "common/errors.hpp"
#include "common/hopper/ptx.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/tensor_cores.hpp"
#include "common/tensor_map.hpp"
#include "common/tile_order.cuh"

namespace ladder {
namespace {

using namespace hopper;

// What the kernel multiplies. BF16: A (K-major) and B (N-major) as in stages 16-17. TF32 (FP32
// users): A and B^T, both K-major, since wgmma reads TF32 from shared memory only K-major (it
// has no transpose for TF32); B^T is B transposed by stage 08's kernel. A slice is 128 bytes
// deep either way (64 BF16 or 32 floats: one line of the 128-byte swizzle), and a box of B is
// 64 such lines (8 KB), so the ring, the barriers and the byte counts are the same for both.
struct Bf16Operands {
  using View = MatrixBf16;
  static constexpr int kSliceK = hopper::kSliceK;
  // B's boxes: 64 columns x 64 K-rows; the one for columns n.. of slice k0.. sits at
  // (column n, row k0) of B.
  static CUtensorMap b_map(const MatrixBf16& b) { return make_tensor_map_2d(b, 64, kSliceK); }
  __device__ static int2 b_box(int k0, int n) { return make_int2(n, k0); }
  template <int N>
  __device__ static void multiply(const unsigned char* a_strip, const unsigned char* b_slot,
                                  float (&acc)[N / 2], bool accumulate) {
    multiply_slice<N>(reinterpret_cast<const bf16*>(a_strip),
                      reinterpret_cast<const bf16*>(b_slot), acc, accumulate);
  }
};

struct Tf32Operands {
  using View = Matrix;
  static constexpr int kSliceK = kSliceRowBytes / 4;  // 32 floats
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

// The epilogue's staging, per consumer: 64 rows x 64 FP32 columns as two 32-column boxes
// (128-byte rows, swizzled as TMA reads them), 16 KB, after the ring. For 128 x 256 tiles,
// 4 x 48 KB slots + 2 x 16 KB + 1 KB of alignment + barriers = 230,464 bytes, just under the
// H100's 232,448 a block.
constexpr int kStagingBytes = 64 * 64 * 4;

// BlockM x BlockN tiles of C; consumers of ConsumerRows each (64 or 128: one or two
// m64nBlockN strips); a cluster of ClusterM blocks stacked along M shares every slice of B;
// tiles are walked in groups of GroupM cluster rows; Persistent: one block per SM looping
// over tiles, else one block per tile (an ablation); TmaStore: the epilogue through shared
// memory and TMA stores where C allows (an ablation turns it off); EvenRounds: a persistent
// grid trimmed to the fewest clusters that finish in the same number of rounds of tiles (an
// ablation keeps every cluster that fits). Four ring slots, each with a full and an empty
// barrier, as stage 17's.
template <int BlockM, int BlockN, int ConsumerRows, int ClusterM, int GroupM, bool Persistent,
          bool TmaStore = true, bool EvenRounds = true>
struct Config : SlotRing<BlockM, BlockN, 4, 2, BlockM / ConsumerRows * kStagingBytes> {
  static constexpr int kConsumerRows = ConsumerRows;
  static constexpr int kClusterM = ClusterM;
  static constexpr int kGroupM = GroupM;
  static constexpr bool kPersistent = Persistent;
  static constexpr bool kTmaStore = TmaStore;
  static constexpr bool kEvenRounds = EvenRounds;
  static constexpr int kConsumers = BlockM / ConsumerRows;
  static constexpr int kThreads = (1 + kConsumers) * 128;
  static_assert(kConsumers == 2, "the register split (kConsumerRegisters) is for two consumers");
};

// Which tile a cluster computes on its i-th turn: tiles numbered in groups of kGroupM cluster
// rows (of kClusterM tile rows each), walking down a group's column before moving right
// (common/tile_order.cuh), so that clusters running at the same time share slices in L2.
template <class Cfg>
struct TileOrder {
  int tiles_n;
  int cluster_rows;  // rows of clusters: tile rows / kClusterM, rounded up
  __device__ TileOrder(const Matrix& c)
      : tiles_n((c.width + Cfg::kBlockN - 1) / Cfg::kBlockN),
        cluster_rows(((c.height + Cfg::kBlockM - 1) / Cfg::kBlockM + Cfg::kClusterM - 1) /
                     Cfg::kClusterM) {}
  __device__ int count() const { return cluster_rows * tiles_n; }
  // The origin in C of tile t for the block of this rank in its cluster.
  __device__ void origin(int t, std::uint32_t rank, int& row0, int& col0) const {
    const TileOrigin at = grouped_tile_origin(t, cluster_rows, tiles_n, Cfg::kGroupM, Cfg::kBlockM,
                                              Cfg::kBlockN, Cfg::kClusterM, static_cast<int>(rank));
    row0 = at.row;
    col0 = at.col;
  }
};

// Store, through TMA: a consumer's 64 x N strip of accumulators goes out in 64-column rounds.
// Each round its threads write 64 x 64 values into the consumer's staging buffer, in the
// 128-byte swizzle that the TMA store reads (16-byte chunk q of row r at chunk q ^ (r % 8)),
// and one thread hands the two 32-column boxes to TMA, which clips them at C's edges. The
// 8-byte stores are served a half-warp at a time, whose 4 rows reach only 4 of the 8 chunk
// positions: 2-way bank conflicts (Nsight Compute: 4.7 wavefronts a request, 2 ideal). The consumer moves on once the copy engine has read the buffer, not when
// the bytes reach memory: the writes to C overlap the next tile's products.
template <int N>
__device__ inline void store_strip_through_tma(const CUtensorMap* c_map, unsigned char* staging,
                                               const float (&acc)[N / 2], int row0, int col0,
                                               int thread, int barrier_id) {
  const int row = thread / 32 * 16 + thread % 32 / 4;
#pragma unroll
  for (int round = 0; round < N / 64; ++round) {
    if (thread == 0) bulk_wait_read();  // the last round's boxes have left the buffer
    sync_threads(barrier_id, 128);
#pragma unroll
    for (int group = 0; group < 8; ++group) {  // 8-column groups of this round
      const int j = round * 8 + group;
      const int col = group * 8 + thread % 4 * 2;  // 0..63 within the round
      const int box = col / 32;
      const int chunk = col % 32 / 4;
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int r = row + half * 8;
        const int byte = box * 64 * 128 + r * 128 + (chunk ^ r % 8) * 16 + col % 4 * 4;
        *reinterpret_cast<float2*>(staging + byte) =
            make_float2(acc[j * 4 + half * 2], acc[j * 4 + half * 2 + 1]);
      }
    }
    fence_shared_for_tma();
    sync_threads(barrier_id, 128);
    if (thread == 0) {
      tma_store(c_map, staging, col0 + round * 64, row0);
      tma_store(c_map, staging + 64 * 128, col0 + round * 64 + 32, row0);
      bulk_commit();
    }
  }
}

template <class Ops, class Cfg, bool TmaStore>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_persistent(const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map,
                    const __grid_constant__ CUtensorMap c_map, int k, Matrix c) {
  constexpr int kSlots = Cfg::kSlots;
  constexpr int kClusterM = Cfg::kClusterM;
  extern __shared__ unsigned char shared[];
  unsigned char* ring = align_to_swizzle(shared);
  unsigned char* staging = ring + kSlots * Cfg::kSlotBytes;  // kConsumers x kStagingBytes
  std::uint64_t* full =
      reinterpret_cast<std::uint64_t*>(staging + Cfg::kConsumers * kStagingBytes);
  // empty[slot]: every consumer of every block in the cluster is done with the slot, since
  // each block's loads of B write into all of them.
  std::uint64_t* empty = full + kSlots;
  const std::uint32_t rank = kClusterM > 1 ? rank_in_cluster() : 0;
  if (threadIdx.x == 0) {
    for (int slot = 0; slot < kSlots; ++slot) {
      barrier_init(&full[slot], 1);
      barrier_init(&empty[slot], Cfg::kConsumers * kClusterM);
    }
    barrier_init_fence();
  }
  // The cluster's barriers are initialised before any block arrives on or copies to another's.
  if constexpr (kClusterM > 1) {
    cluster_sync();
  } else {
    __syncthreads();
  }

  const TileOrder<Cfg> order(c);
  const int cluster = blockIdx.x / kClusterM;
  const int step = Cfg::kPersistent ? gridDim.x / kClusterM : order.count();
  const int slices = (k + Ops::kSliceK - 1) / Ops::kSliceK;

  if (threadIdx.x / 128 == 0) {
    // Producer: the ring runs on across tiles (`it` counts slices over all of them), so the
    // next tile's slices load while the consumers store this one.
    registers_decrease<kProducerRegisters>();
    if (threadIdx.x == 0) {
      int it = 0;
      for (int t = cluster; t < order.count(); t += step) {
        int row0 = 0;
        int col0 = 0;
        order.origin(t, rank, row0, col0);
        for (int s = 0; s < slices; ++s, ++it) {
          const int slot = it % kSlots;
          if (it >= kSlots) barrier_wait(&empty[slot], (it / kSlots - 1) % 2);
          unsigned char* to = ring + slot * Cfg::kSlotBytes;
          barrier_expect_bytes(&full[slot], Cfg::kSlotBytes);
          tma_load(to, &a_map, &full[slot], s * Ops::kSliceK, row0);
          // B: the blocks of a cluster need the same slice; block r loads boxes r, r +
          // kClusterM, ... and multicasts each to all.
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
    // Consumers: as stage 17's, tile after tile; slots are handed back to every block of the
    // cluster (thread r arrives on rank r's barrier).
    registers_increase<kConsumerRegisters>();
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
    float acc[kStrips][Cfg::kBlockN / 2];
    int it = 0;
    for (int t = cluster; t < order.count(); t += step) {
      int row0 = 0;
      int col0 = 0;
      order.origin(t, rank, row0, col0);
      for (int s = 0; s < slices; ++s, ++it) {
        const unsigned char* slot = ring + it % kSlots * Cfg::kSlotBytes;
        barrier_wait(&full[it % kSlots], it / kSlots % 2);
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
          store_strip_through_tma<Cfg::kBlockN>(&c_map, staging + consumer * kStagingBytes,
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

// How a Cfg's blocks are launched: in clusters of kClusterM along x, one block per SM.
// Neither copied nor moved: config.attrs points at this object's own cluster_shape, which a
// copy's config would still point at after the original is gone.
template <class Cfg>
struct Launch {
  cudaLaunchAttribute cluster_shape = {};
  cudaLaunchConfig_t config = {};
  Launch(const Launch&) = delete;
  Launch& operator=(const Launch&) = delete;
  explicit Launch(long long blocks) {
    cluster_shape.id = cudaLaunchAttributeClusterDimension;
    cluster_shape.val.clusterDim.x = Cfg::kClusterM;
    cluster_shape.val.clusterDim.y = 1;
    cluster_shape.val.clusterDim.z = 1;
    config.gridDim = dim3(static_cast<unsigned>(blocks));
    config.blockDim = dim3(Cfg::kThreads);
    config.dynamicSmemBytes = Cfg::kSharedBytes;
    config.attrs = &cluster_shape;
    config.numAttrs = 1;
  }
};

template <class Cfg>
long long cluster_tiles(const Matrix& c) {
  const long long tiles_m = (c.height + Cfg::kBlockM - 1) / Cfg::kBlockM;
  const long long tiles_n = (c.width + Cfg::kBlockN - 1) / Cfg::kBlockN;
  return (tiles_m + Cfg::kClusterM - 1) / Cfg::kClusterM * tiles_n;
}

// As many clusters as the GPU holds at once (132 SMs, 1 block each: 66 pairs on the H100),
// asked of the device rather than assumed, again whenever the current device changes. Both
// kernels of a Cfg (TMA or direct store) take the same threads, registers and shared memory.
// The answer is kept for the next call under a lock: host threads may launch at once.
template <class Ops, class Cfg>
int resident_clusters() {
  static std::mutex mutex;
  static int asked_device = -1;
  static int resident = 0;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  if (device != asked_device) {
    auto kernel = gemm_persistent<Ops, Cfg, Cfg::kTmaStore>;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    Cfg::kSharedBytes));
    Launch<Cfg> one_wave(Cfg::kClusterM);
    CUDA_CHECK(cudaOccupancyMaxActiveClusters(&resident, kernel, &one_wave.config));
    if (resident < 1) throw CudaError("stage 18: not one cluster of its blocks fits on this GPU");
    asked_device = device;
  }
  return resident;
}

// One cluster per tile, or (persistent) as many as fit at once. With even rounds, only as many
// of those as finish in the same number of rounds of tiles, so that the clusters' shares differ
// by at most one tile: at 4096^3, 256 cluster tiles run as 64 clusters of 4 tiles rather than
// 66 of which 8 take 3. The last round ends no sooner either way, and the 64 tiles a round then covers are
// 8 whole columns of one group of the tile order: 1.0-1.8% faster at 4096^3 with 9.9% fewer
// bytes read from DRAM (results/bench_18.txt, results/profile_18_even_rounds_4096.md).
template <class Ops, class Cfg>
long long clusters_to_launch(const Matrix& c) {
  const long long tiles = cluster_tiles<Cfg>(c);
  if constexpr (!Cfg::kPersistent) return tiles;
  const long long fit = std::min<long long>(resident_clusters<Ops, Cfg>(), tiles);
  if (!Cfg::kEvenRounds || fit == 0) return fit;  // fit == 0: no tiles (the launchers return first)
  const long long rounds = (tiles + fit - 1) / fit;
  return (tiles + rounds - 1) / rounds;
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

using Wide = Config<128, 256, 64, 2, 8, true>;
using Narrow = Config<128, 192, 64, 2, 8, true>;
using WideAlone = Config<128, 256, 64, 1, 8, true>;
using NarrowAlone = Config<128, 192, 64, 1, 8, true>;
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
// H100 (results/search_18_gpu_persistent_clusters.md). Clusters pay only past one wave: where
// every tile of 128 x 256 has its own SM at once (2048^3, the articles' problem) the blocks
// gain nothing from sharing B and lose to waiting for each other. And 192-wide tiles only
// where they shorten waves x width by at least 10%: they fill a wave better, but ran 1.6%
// slower than 256-wide ones at 8192^3, so 4096^3 and 8192^3 keep 256. The TF32 variant
// uses the same rules: its slots, tiles and waves are the same.
template <class Ops, class W, class N>
void launch_best_width(typename Ops::View a, typename Ops::View b, Matrix c) {
  if (10 * wave_width<Ops, N>(c) < 9 * wave_width<Ops, W>(c)) {
    launch<Ops, N>(a, b, c);
  } else {
    launch<Ops, W>(a, b, c);
  }
}
template <class Ops>
void launch_best(typename Ops::View a, typename Ops::View b, Matrix c) {
  const bool one_wave = cluster_tiles<WideAlone>(c) <= resident_clusters<Ops, WideAlone>();
  if (one_wave) {
    launch_best_width<Ops, WideAlone, NarrowAlone>(a, b, c);
  } else {
    launch_best_width<Ops, Wide, Narrow>(a, b, c);
  }
}

// The first is the default; each other one changes one thing (results/search_18_...).
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

// TF32: the default, its tilings, and the ablations that change the most.
const NamedLaunch<void (*)(Matrix a, Matrix b_t, Matrix c)> kTf32Variants[] = {
    {"by_size", launch_best<Tf32Operands>},
    {"128x256_c2_g8", launch<Tf32Operands, Wide>},
    {"128x256_c2_g8_uneven", launch<Tf32Operands, Config<128, 256, 64, 2, 8, true, true, false>>},
    {"128x192_c2_g8", launch<Tf32Operands, Narrow>},
    {"128x192_c1_g8", launch<Tf32Operands, NarrowAlone>},
    {"128x256_c1_g8", launch<Tf32Operands, WideAlone>},  // no cluster
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

OperandPath launch_gemm_persistent(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c) {
  return launch_hopper_variant(find_config(kVariants, config, "stage 18 has no variant"), a, b,
                               c);
}

std::vector<std::string> persistent_tf32_configs() { return config_names(kTf32Variants); }

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
  launch_transpose_padded(b, b_t, 32, 8);
  variant.launch(a, b_t, c);
  return OperandPath::tma;
}

void launch_gemm_persistent_tf32_transposed(const std::string& config, Matrix a, Matrix b_t,
                                            Matrix c) {
  const auto& variant = find_config(kTf32Variants, config, "stage 18 TF32 has no variant");
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
