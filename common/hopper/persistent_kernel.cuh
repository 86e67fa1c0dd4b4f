// The persistent kernel in clusters: one block per SM (or one per tile) walks the output tiles
// in the tile order of common/tile_order.cuh, as stage 18's kernel does; a cluster's blocks
// share each slice of B through TMA multicast; the epilogue stores through TMA or directly.
// Its operands are a parameter (Bf16Operands, bf16_operands.cuh). The building blocks are in
// persistent.cuh; the rule that picks a tiling per problem in persistent_rule.cuh.
#pragma once

#include <algorithm>

#include "common/hopper/bf16_operands.cuh"
#include "common/hopper/cluster.cuh"
#include "common/hopper/cluster_launch.hpp"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/persistent.cuh"
#include "common/hopper/tma.cuh"
#include "common/hopper/tma_store.cuh"
#include "common/hopper/warp_specialization.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/tensor_map.hpp"

namespace ladder::persistent {

// Internal to each file that includes it, as a kernel written in that file would be: each
// stage's library compiles its own instances.
namespace {

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
          store_strip_through_tma<Cfg::kBlockN>(&c_map, layout.staging + consumer * kStagingBytes,
                                                acc[strip], strip_row, col0, thread, 1 + consumer);
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

// As many clusters as the GPU holds at once (cluster_launch.hpp), for this kernel.
template <class Ops, class Cfg>
int resident_persistent_clusters() {
  return resident_clusters_of<Cfg>(gemm_persistent<Ops, Cfg, Cfg::kTmaStore>);
}

// One cluster per tile, or (persistent) as many as fit at once. With even rounds, only as many of
// those as finish in the same number of rounds of tiles, so that the clusters' shares differ by at
// most one tile: at 4096^3, 256 cluster tiles run as 64 clusters of 4 tiles rather than 66 of which
// 8 take 3. The last round ends no sooner either way, and the 64 tiles a round then covers are 8
// whole columns of one group of the tile order: 1.0-1.8% faster at 4096^3 with 9.9% fewer bytes
// read from DRAM (results/19_gpu_clusters/bench.txt and profile_even_rounds_4096.md there).
template <class Ops, class Cfg>
long long clusters_to_launch(const Matrix& c) {
  const long long tiles = cluster_tiles<Cfg>(c);
  if constexpr (!Cfg::kPersistent) return tiles;
  const long long fit = std::min<long long>(resident_persistent_clusters<Ops, Cfg>(), tiles);
  if (!Cfg::kEvenRounds || fit == 0) return fit;  // fit == 0: no tiles (the launchers return first)
  return even_rounds_clusters(tiles, fit);
}

// C through TMA stores where it allows them (allows_tma_store) and the variant does, else each
// thread's float2 / float stores (store_strip). b is B (BF16) or B^T (TF32).
template <class Ops, class Cfg>
void launch_persistent(typename Ops::View a, typename Ops::View b, Matrix c) {
  const bool tma_store = Cfg::kTmaStore && allows_tma_store(c);
  // Only a Cfg with the TMA store builds that kernel: an ablation without it has one kernel.
  auto kernel = gemm_persistent<Ops, Cfg, false>;
  if constexpr (Cfg::kTmaStore) {
    if (tma_store) kernel = gemm_persistent<Ops, Cfg, true>;
  }
  const CUtensorMap a_map = make_tensor_map_2d(a, Ops::kSliceK, Cfg::kBlockM);
  const CUtensorMap b_map = Ops::b_map(b);
  // Without the TMA store the kernel never reads c_map; A's map stands in for it.
  const CUtensorMap c_map = tma_store ? make_store_tensor_map_2d(c, 32, 64) : a_map;
  launch_in_clusters<Cfg>(kernel, clusters_to_launch<Ops, Cfg>(c), a_map, b_map, c_map, a.width,
                          c);
}

}  // namespace
}  // namespace ladder::persistent
