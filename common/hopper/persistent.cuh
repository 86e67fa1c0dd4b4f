// The building blocks of the persistent kernels in clusters: the tile configuration, the
// shared-memory layout, the producer's loads and the order in which clusters take tiles.
#pragma once

#include <cuda.h>

#include "common/hopper/cluster.cuh"
#include "common/hopper/cluster_launch.hpp"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/tma.cuh"
#include "common/hopper/tma_store.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/tensor_map.hpp"
#include "common/tile_order.cuh"

namespace ladder::persistent {

using namespace hopper;

// A slot's row part where the rows are A's (K-major): the slice's BlockM rows, one box.
struct RowsOfA {
  __device__ static void load_rows(unsigned char* to, const CUtensorMap* map, std::uint64_t* full,
                                   int k0, int row0, int /*rows*/) {
    tma_load(to, map, full, k0, row0);
  }
};

// BlockM x BlockN tiles of C; BlockM / ConsumerRows consumers (two; one for 64-row tiles) of one
// or two m64nBlockN strips; a cluster of ClusterM blocks along M shares every slice of B; tiles
// in groups of kGroupM cluster rows; Slots ring slots, each with a full and an empty barrier.
// EvenRounds (the fewest clusters that finish in as many rounds as all that fit) an ablation.
template <int BlockM, int BlockN, int ConsumerRows, int ClusterM, bool EvenRounds = true,
          int Slots = 4>
struct Config : SlotRing<BlockM, BlockN, Slots, 2, BlockM / ConsumerRows * kStagingBytes> {
  static constexpr int kConsumerRows = ConsumerRows;
  static constexpr int kClusterM = ClusterM;
  static constexpr int kGroupM = 8;
  static constexpr bool kEvenRounds = EvenRounds;
  static constexpr int kConsumers = BlockM / ConsumerRows;
  static constexpr int kThreads = (1 + kConsumers) * 128;
  static_assert(kConsumers == 1 || kConsumers == 2, "one or two consumers");
};

// Stage 19's tilings (128 x 256, 128 x 192; in pairs or alone) and 64-row ones, one consumer each.
using Wide = Config<128, 256, 64, 2>;
using Narrow = Config<128, 192, 64, 2>;
using WideAlone = Config<128, 256, 64, 1>;
using NarrowAlone = Config<128, 192, 64, 1>;
using ShortWide = Config<64, 256, 64, 1, true, 5>;
using ShortHalf = Config<64, 128, 64, 1, true, 8>;

// A block's dynamic shared memory as Cfg lays it out: the ring of slots, each consumer's
// staging buffer, then each slot's full and empty barriers.
template <class Cfg>
struct SharedLayout {
  unsigned char* ring;
  unsigned char* staging;
  std::uint64_t* full;
  std::uint64_t* empty;
  __device__ explicit SharedLayout(unsigned char* shared)
      : ring(align_to_swizzle(shared)),
        staging(ring + Cfg::kSlots * Cfg::kSlotBytes),
        full(reinterpret_cast<std::uint64_t*>(staging + Cfg::kConsumers * kStagingBytes)),
        empty(full + Cfg::kSlots) {}
};

// Thread 0 initialises the barriers; the block (the cluster: its blocks arrive on and copy into
// each other's) waits for them. empty[slot] counts the cluster's consumers: B goes to all blocks.
template <class Cfg>
__device__ inline void init_barriers(const SharedLayout<Cfg>& layout) {
  if (threadIdx.x == 0) {
    for (int slot = 0; slot < Cfg::kSlots; ++slot) {
      barrier_init(&layout.full[slot], 1);
      barrier_init(&layout.empty[slot], Cfg::kConsumers * Cfg::kClusterM);
    }
    barrier_init_fence();
  }
  if constexpr (Cfg::kClusterM > 1) {
    cluster_sync();
  } else {
    __syncthreads();
  }
}

// The producer's step `it` (counted over every slice the block loads): once the cluster's consumers
// have freed the slot, slice s of the tile at (row0, col0) into it, the rows (Ops::load_rows) and
// B's boxes, which every block of a cluster needs: block r loads r, r + kClusterM, ... for all.
template <class Ops, class Cfg>
__device__ inline void load_slice(const SharedLayout<Cfg>& layout, const CUtensorMap* a_map,
                                  const CUtensorMap* b_map, int it, int s, int row0, int col0,
                                  std::uint32_t rank) {
  const int slot = it % Cfg::kSlots;
  if (it >= Cfg::kSlots) barrier_wait(&layout.empty[slot], (it / Cfg::kSlots - 1) % 2);
  unsigned char* to = layout.ring + slot * Cfg::kSlotBytes;
  std::uint64_t* full = &layout.full[slot];
  barrier_expect_bytes(full, Cfg::kSlotBytes);
  Ops::load_rows(to, a_map, full, s * Ops::kSliceK, row0, Cfg::kBlockM);
#pragma unroll
  for (int box = static_cast<int>(rank); box < Cfg::kBlockN / 64; box += Cfg::kClusterM) {
    unsigned char* box_to = to + Cfg::kSliceABytes + box * kBoxBytes;
    const int2 at = Ops::b_box(s * Ops::kSliceK, col0 + box * 64);
    if constexpr (Cfg::kClusterM > 1) {
      tma_load_multicast(box_to, b_map, full, at.x, at.y, (1 << Cfg::kClusterM) - 1);
    } else {
      tma_load(box_to, b_map, full, at.x, at.y);
    }
  }
}

// A consumer hands slot `it` back to every block of the cluster: its thread r arrives on rank r's
// empty barrier.
template <class Cfg>
__device__ inline void release_slot(const SharedLayout<Cfg>& layout, int it, int thread) {
  if (thread < Cfg::kClusterM) {
    if constexpr (Cfg::kClusterM > 1) {
      barrier_arrive_in_block(&layout.empty[it % Cfg::kSlots], static_cast<std::uint32_t>(thread));
    } else {
      barrier_arrive(&layout.empty[it % Cfg::kSlots]);
    }
  }
}

// Which tile a cluster computes on its i-th turn, in groups of kGroupM cluster rows
// (tile_order.cuh), so that clusters running at the same time share slices in L2.
template <class Cfg>
struct TileOrder {
  int tiles_n;
  int cluster_rows;  // tile rows / kClusterM, rounded up
  __device__ TileOrder(const Matrix& c)
      : tiles_n((c.width + Cfg::kBlockN - 1) / Cfg::kBlockN),
        cluster_rows(((c.height + Cfg::kBlockM - 1) / Cfg::kBlockM + Cfg::kClusterM - 1) /
                     Cfg::kClusterM) {}
  __device__ int count() const { return cluster_rows * tiles_n; }
  // The origin in C of tile t for the block of this rank in its cluster.
  __device__ TileOrigin origin(int t, std::uint32_t rank) const {
    return grouped_tile_origin(t, cluster_rows, tiles_n, Cfg::kGroupM, Cfg::kBlockM, Cfg::kBlockN,
                               Cfg::kClusterM, static_cast<int>(rank));
  }
};

// The producer: its thread 0 loads every slice of the block's tiles (first, first + step, ...)
// in order, the ring running on across tiles, so that the next tile's slices load while the
// consumers store this one.
template <class Ops, class Cfg>
__device__ inline void load_tiles(const SharedLayout<Cfg>& layout, const CUtensorMap* row_map,
                                  const CUtensorMap* col_map, const TileOrder<Cfg>& order,
                                  int first, int step, int slices, std::uint32_t rank) {
  if (threadIdx.x != 0) return;
  int it = 0;
  for (int t = first; t < order.count(); t += step) {
    const auto [row0, col0] = order.origin(t, rank);
    for (int s = 0; s < slices; ++s, ++it) {
      load_slice<Ops>(layout, row_map, col_map, it, s, row0, col0, rank);
    }
  }
}

// Tiles of C in whole clusters: tile rows rounded up to whole clusters, times tile columns.
template <class Cfg>
long long cluster_tiles(const Matrix& c) {
  const long long tiles_m = (c.height + Cfg::kBlockM - 1) / Cfg::kBlockM;
  const long long tiles_n = (c.width + Cfg::kBlockN - 1) / Cfg::kBlockN;
  return (tiles_m + Cfg::kClusterM - 1) / Cfg::kClusterM * tiles_n;
}

}  // namespace ladder::persistent
