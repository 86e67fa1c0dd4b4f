// Thread block clusters: the blocks of a cluster run at once and reach each other's shared
// memory. What the clustered kernels use of that: a block's rank, a barrier across the cluster,
// an arrival on another block's mbarrier, and a TMA load multicast into every block.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only: nothing here calls the driver)

#include <cstdint>

#include "common/shared_address.cuh"

namespace ladder::hopper {

__device__ inline std::uint32_t rank_in_cluster() {
  std::uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}
// Every thread of every block in the cluster arrives, then waits for all the others.
__device__ inline void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n"
               "barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// Arrives on the barrier at the same offset in block `rank` of this cluster, with the default
// (CTA-scope) ordering: what must precede the partner's refill is that this block's wgmma have
// read the slot, which wgmma.wait_group already guarantees. A release at cluster scope made the
// clustered kernel 35% slower (results/19_gpu_clusters/notes.md).
__device__ inline void barrier_arrive_in_block(std::uint64_t* bar, std::uint32_t rank) {
  asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
               "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n"
               :: "r"(shared_address(bar)), "r"(rank) : "memory");
}

// tma_load (tma.cuh), written to the same offset in every block of the cluster named in
// `blocks` (bit i: rank i), counted on each one's barrier at `bar`'s offset.
__device__ inline void tma_load_multicast(void* to, const CUtensorMap* map, std::uint64_t* bar,
                                          int col, int row, std::uint16_t blocks) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;\n"
               :: "r"(shared_address(to)), "l"(map), "r"(shared_address(bar)), "r"(col), "r"(row),
                  "h"(blocks)
               : "memory");
}

}  // namespace ladder::hopper
