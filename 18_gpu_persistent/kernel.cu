#include "18_gpu_persistent/kernel.hpp"

#include <algorithm>

#include "common/hopper/cluster_launch.hpp"
#include "common/hopper/launch.hpp"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/tma.cuh"
#include "common/hopper/tma_store.cuh"
#include "common/hopper/warp_specialization.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/tensor_map.hpp"
#include "common/tile_order.cuh"

namespace ladder {
namespace {

using namespace hopper;

// Stage 17's block, 128 x 256 tiles: a producer and two consumers of 64 rows each, four ring
// slots of 48 KB, and after them each consumer's staging buffer for the store (tma_store.cuh).
// Four switches, each an idea an ablation turns off: Persistent (one block per SM looping over
// tiles, else one block per tile), EvenRounds (the fewest blocks that take the tiles in as
// many rounds as every block that fits would), GroupM (tile rows per group of the tile order;
// 1 is row order) and TmaStore (the store through TMA, where C allows it).
template <int GroupM, bool Persistent, bool TmaStore = true, bool EvenRounds = true>
struct Tiling : SlotRing<128, 256, 4, 2, 2 * kStagingBytes> {
  static constexpr int kGroupM = GroupM;
  static constexpr bool kPersistent = Persistent;
  static constexpr bool kTmaStore = TmaStore;
  static constexpr bool kEvenRounds = EvenRounds;
  static constexpr int kConsumers = 2;  // the register split (kConsumerRegisters) is for two
  static constexpr int kConsumerRows = kBlockM / kConsumers;
  static constexpr int kThreads = (1 + kConsumers) * 128;
  static constexpr int kClusterM = 1;  // launched as clusters of one block (cluster_launch.hpp)
};

template <class T, bool TmaStore>
__global__ void __launch_bounds__(T::kThreads, 1)
    gemm_persistent(const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map,
                    const __grid_constant__ CUtensorMap c_map, int k, Matrix c) {
  constexpr int kBlockM = T::kBlockM;
  constexpr int kBlockN = T::kBlockN;
  constexpr int kSlots = T::kSlots;
  constexpr int kSlotBytes = T::kSlotBytes;
  extern __shared__ unsigned char shared[];
  unsigned char* ring = align_to_swizzle(shared);
  unsigned char* staging = ring + kSlots * kSlotBytes;
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(staging + T::kConsumers * kStagingBytes);
  std::uint64_t* empty = full + kSlots;
  if (threadIdx.x == 0) {
    for (int slot = 0; slot < kSlots; ++slot) {
      barrier_init(&full[slot], 1);
      barrier_init(&empty[slot], T::kConsumers);
    }
    barrier_init_fence();
  }
  __syncthreads();

  // Tile t of the grouped order (tile_order.cuh); this block takes tiles blockIdx.x,
  // blockIdx.x + step, ... Producer and consumers walk the same tiles, so they agree on each
  // slot's tile without telling each other.
  const int tile_cols = (c.width + kBlockN - 1) / kBlockN;
  const int tile_rows = (c.height + kBlockM - 1) / kBlockM;
  const int first = blockIdx.x;
  const int step = T::kPersistent ? gridDim.x : tile_rows * tile_cols;
  const int slices = (k + kSliceK - 1) / kSliceK;
  auto origin = [&](int t) {
    return grouped_tile_origin(t, tile_rows, tile_cols, T::kGroupM, kBlockM, kBlockN);
  };

  if (threadIdx.x / 128 == 0) {
    // Producer: one thread, the ring running on across tiles (`it` counts slices over all of
    // them), so the next tile's first slices load while the consumers store this one.
    registers_decrease<kProducerRegisters>();
    if (threadIdx.x == 0) {
      int it = 0;
      for (int t = first; t < tile_rows * tile_cols; t += step) {
        const auto [row0, col0] = origin(t);
        for (int s = 0; s < slices; ++s, ++it) {
          const int slot = it % kSlots;
          if (it >= kSlots) barrier_wait(&empty[slot], (it / kSlots - 1) % 2);
          unsigned char* to = ring + slot * kSlotBytes;
          barrier_expect_bytes(&full[slot], kSlotBytes);
          tma_load(to, &a_map, &full[slot], s * kSliceK, row0);
#pragma unroll
          for (int box = 0; box < kBlockN / 64; ++box) {
            tma_load(to + T::kSliceABytes + box * kBoxBytes, &b_map, &full[slot],
                     col0 + box * 64, s * kSliceK);
          }
        }
      }
    }
  } else {
    // Consumers: stage 17's, tile after tile, then the tile's store.
    registers_increase<kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
    auto release = [&](int it) {
      if (thread == 0) barrier_arrive(&empty[it % kSlots]);
    };
    float acc[kBlockN / 2];
    int it = 0;
    for (int t = first; t < tile_rows * tile_cols; t += step) {
      const auto [row0, col0] = origin(t);
      for (int s = 0; s < slices; ++s, ++it) {
        const unsigned char* slot = ring + it % kSlots * kSlotBytes;
        barrier_wait(&full[it % kSlots], it / kSlots % 2);
        const unsigned char* a = slot + consumer * T::kConsumerRows * kSliceRowBytes;
        wgmma_fence();
        multiply_slice<kBlockN>(reinterpret_cast<const bf16*>(a),
                                reinterpret_cast<const bf16*>(slot + T::kSliceABytes), acc, s > 0);
        wgmma_commit();
        wgmma_wait<1>();
        if (s > 0) release(it - 1);
      }
      wgmma_wait<0>();
      release(it - 1);
      // Store, while the producer already loads the next tile's first slices.
      const int strip_row = row0 + consumer * T::kConsumerRows;
      if constexpr (TmaStore) {
        store_strip_through_tma<kBlockN>(&c_map, staging + consumer * kStagingBytes, acc,
                                         strip_row, col0, thread, 1 + consumer);
      } else {
        store_strip<kBlockN>(c, acc, strip_row, col0, thread);
      }
    }
    if constexpr (TmaStore) {
      if (thread == 0) bulk_wait_done();  // the block's last stores have reached C
    }
  }
}

// One block per tile, or (persistent) as many as fit at once; with even rounds only as many of
// those as finish in the same number of rounds: at 4096^3, 512 tiles run on 128 blocks of 4
// tiles each rather than on 132 of which 116 take 4 and 16 take 3.
template <class T>
long long blocks_to_launch(const Matrix& c) {
  const long long tiles = static_cast<long long>((c.height + T::kBlockM - 1) / T::kBlockM) *
                          ((c.width + T::kBlockN - 1) / T::kBlockN);
  if constexpr (!T::kPersistent) return tiles;
  const long long fit =
      std::min<long long>(resident_clusters_of<T>(gemm_persistent<T, T::kTmaStore>), tiles);
  if (!T::kEvenRounds || fit == 0) return fit;  // fit == 0: no tiles (the launchers return first)
  return even_rounds_clusters(tiles, fit);
}

// C through TMA stores where it allows them (allows_tma_store) and the variant does, else
// from registers (store_strip).
template <class T>
void launch(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  const bool tma_store = T::kTmaStore && allows_tma_store(c);
  // Only a tiling with the TMA store builds that kernel: an ablation without it has one kernel.
  auto kernel = gemm_persistent<T, false>;
  if constexpr (T::kTmaStore) {
    if (tma_store) kernel = gemm_persistent<T, true>;
  }
  const CUtensorMap a_map = make_tensor_map_2d(a, kSliceK, T::kBlockM);
  const CUtensorMap b_map = make_tensor_map_2d(b, 64, kSliceK);
  // Without the TMA store the kernel never reads c_map; A's map stands in for it.
  const CUtensorMap c_map = tma_store ? make_store_tensor_map_2d(c, 32, 64) : a_map;
  launch_in_clusters<T>(kernel, blocks_to_launch<T>(c), a_map, b_map, c_map, a.width, c);
}

// The first is the default; each other one turns one of its ideas off
// (results/18_gpu_persistent/notes.md).
const HopperVariant kVariants[] = {
    {"128x256_g8", launch<Tiling<8, true>>},
    {"128x256_g8_direct_store", launch<Tiling<8, true, false>>},
    {"128x256_g8_uneven", launch<Tiling<8, true, true, false>>},
    {"128x256_g1", launch<Tiling<1, true>>},      // row order
    {"128x256_tiled", launch<Tiling<8, false>>},  // one block per tile
};

}  // namespace

std::vector<std::string> persistent_configs() { return config_names(kVariants); }

OperandPath launch_gemm_persistent(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c) {
  return launch_hopper_variant(find_config(kVariants, config, "stage 18 has no variant"), a, b,
                               c);
}

}  // namespace ladder
