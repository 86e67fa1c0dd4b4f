// The persistent kernel in clusters: at most one block per SM walks the output tiles in the tile order
// of common/tile_order.cuh; a cluster's blocks share each slice of B through TMA multicast; the
// epilogue stores through TMA or directly. Its operands are a parameter (Bf16Operands,
// bf16_operands.cuh); its building blocks are persistent.cuh's. And by_size, the rule that
// picks its tiling per problem.
#pragma once

#include <algorithm>

#include "common/hopper/cluster.cuh"
#include "common/hopper/cluster_launch.hpp"
#include "common/hopper/persistent.cuh"
#include "common/hopper/tma_store.cuh"
#include "common/hopper/warp_specialization.cuh"

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
  const SharedLayout<Cfg> layout(shared);
  const std::uint32_t rank = kClusterM > 1 ? rank_in_cluster() : 0;
  init_barriers(layout);

  const TileOrder<Cfg> order(c);
  const int cluster = blockIdx.x / kClusterM;
  const int step = gridDim.x / kClusterM;
  const int slices = (k + Ops::kSliceK - 1) / Ops::kSliceK;

  if (threadIdx.x / 128 == 0) {
    // Producer: the ring runs on across tiles, so the next tile's slices load while the
    // consumers store this one (load_tiles).
    registers_decrease<kProducerRegisters>();
    load_tiles<Ops>(layout, &a_map, &b_map, order, cluster, step, slices, rank);
  } else {
    // Consumers: as stage 17's, tile after tile; slots go back to every block of the cluster.
    registers_increase<kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
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
        if (s > 0) release_slot(layout, it - 1, thread);
      }
      wgmma_wait<0>();
      release_slot(layout, it - 1, thread);
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
  return resident_clusters_of<Cfg>(gemm_persistent<Ops, Cfg, true>);
}

// As many clusters as fit at once; with even rounds, only as many of those as finish in the same
// number of rounds of tiles, so that the clusters' shares differ by at most one tile: at 4096^3,
// 256 cluster tiles run as 64 clusters of 4 tiles rather than 66 of which 8 take 3. The last
// round ends no sooner either way, and the 64 tiles a round then covers are 8 whole columns of
// one group of the tile order: 1.0-1.8% faster at 4096^3 with 9.9% fewer bytes read from DRAM
// (results/19_gpu_clusters/bench.txt and profile_even_rounds_4096.md there).
template <class Ops, class Cfg>
long long clusters_to_launch(const Matrix& c) {
  const long long tiles = cluster_tiles<Cfg>(c);
  const long long fit = std::min<long long>(resident_persistent_clusters<Ops, Cfg>(), tiles);
  if (!Cfg::kEvenRounds || fit == 0) return fit;  // fit == 0: no tiles (the launchers return first)
  return even_rounds_clusters(tiles, fit);
}

// C through TMA stores where it allows them (allows_tma_store), else each thread's float2 or
// float stores (store_strip). b is B (BF16) or B^T (TF32).
template <class Ops, class Cfg>
void launch_persistent(typename Ops::View a, typename Ops::View b, Matrix c) {
  const bool tma_store = allows_tma_store(c);
  const auto kernel =
      tma_store ? gemm_persistent<Ops, Cfg, true> : gemm_persistent<Ops, Cfg, false>;
  const CUtensorMap a_map = make_tensor_map_2d(a, Ops::kSliceK, Cfg::kBlockM);
  const CUtensorMap b_map = Ops::b_map(b);
  // Without the TMA store the kernel never reads c_map; A's map stands in for it.
  const CUtensorMap c_map = tma_store ? make_store_tensor_map_2d(c, 32, 64) : a_map;
  launch_in_clusters<Cfg>(kernel, clusters_to_launch<Ops, Cfg>(c), a_map, b_map, c_map, a.width,
                          c);
}

// by_size, the default, picks its tiling per problem, as libraries do, by two rules measured on
// the H100 (results/19_gpu_clusters/search.md). Clusters pay only past one wave: where every
// tile of 128 x 256 has its own SM at once (2048^3, the articles' problem) the blocks gain
// nothing from sharing B and lose to waiting for each other. And 192-wide tiles only where they
// shorten waves x width (a proxy for the run time: a partly filled last wave counts as a full
// one) by at least 10%: they fill a wave better, but ran 1.6% slower than 256-wide ones at
// 8192^3, so 4096^3 and 8192^3 keep 256. The transposing TF32 variants use the same rules:
// their slots, tiles and waves are the same.
template <class Ops, class Cfg>
long long wave_width(const Matrix& c) {
  const long long resident = resident_persistent_clusters<Ops, Cfg>();
  return (cluster_tiles<Cfg>(c) + resident - 1) / resident * Cfg::kBlockN;
}
template <class Ops, class W, class N>
bool narrow_is_shorter(const Matrix& c) {
  return 10 * wave_width<Ops, N>(c) < 9 * wave_width<Ops, W>(c);
}

template <class Ops>
void launch_best(typename Ops::View a, typename Ops::View b, Matrix c) {
  if (cluster_tiles<WideAlone>(c) <= resident_persistent_clusters<Ops, WideAlone>()) {  // one wave
    narrow_is_shorter<Ops, WideAlone, NarrowAlone>(c) ? launch_persistent<Ops, NarrowAlone>(a, b, c)
                                                      : launch_persistent<Ops, WideAlone>(a, b, c);
  } else {
    narrow_is_shorter<Ops, Wide, Narrow>(c) ? launch_persistent<Ops, Narrow>(a, b, c)
                                            : launch_persistent<Ops, Wide>(a, b, c);
  }
}

}  // namespace
}  // namespace ladder::persistent
