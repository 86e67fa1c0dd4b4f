// Hopper's instructions as small device functions, shared by stages 16-18: mbarriers, TMA
// copies and stores, bulk groups and fences, named barriers, wgmma's fence, commit and wait,
// register reallocation, clusters. Each wrapper is one PTX instruction (PTX ISA 8.0, sm_90a);
// the wgmma products themselves are in wgmma.cuh, what a warpgroup builds from them in
// warpgroup.cuh.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only: nothing here calls the driver)

#include <cstdint>

#include "common/shared_address.cuh"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "stages 16-18 use wgmma and setmaxnreg, which exist only in sm_90a code (ladder_stage ... ARCH 90a)"
#endif

namespace ladder::hopper {

// ---- mbarrier: a counter in shared memory that threads and the copy engine arrive on -------

__device__ inline void barrier_init(std::uint64_t* bar, int arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)),
               "r"(arrivals));
}
// Makes initialised barriers visible to the copy engine and to the other blocks of a cluster.
__device__ inline void barrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// One arrival that also says `bytes` more will land by TMA before this phase completes.
__device__ inline void barrier_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   shared_address(bar)),
               "r"(bytes)
               : "memory");
}
// Waits until the phase with this parity (0, 1, 0, ...) has completed.
__device__ inline void barrier_wait(std::uint64_t* bar, int parity) {
  const std::uint32_t address = shared_address(bar);
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(address), "r"(parity)
        : "memory");
  } while (done == 0);
}
__device__ inline void barrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar))
               : "memory");
}
// Arrives on the barrier at the same offset in block `rank` of this cluster, with the default
// (CTA-scope) ordering. What must precede the partner's refill is that this block's wgmma
// have finished reading the slot, and wgmma.wait_group already guarantees that before the
// arrive; no ordinary memory operation needs releasing to the cluster. A release at cluster
// scope made the clustered kernel 35% slower (results/part4_development).
__device__ inline void barrier_arrive_in_block(std::uint64_t* bar, std::uint32_t rank) {
  asm volatile(
      "{\n.reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(shared_address(bar)),
      "r"(rank)
      : "memory");
}

// ---- TMA: one thread asks the copy engine for a whole box --------------------------------

// Copies the box at element (col, row) of the tensor map into shared memory and counts its
// bytes on `bar`. Parts of the box outside the matrix arrive as zeros (and still count).
__device__ inline void tma_load(void* to, const CUtensorMap* map, std::uint64_t* bar, int col,
                                int row) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(shared_address(to)),
      "l"(map), "r"(shared_address(bar)), "r"(col), "r"(row)
      : "memory");
}
// The same, written to the same offset in every block of the cluster named in `blocks`
// (bit i: rank i), counted on each one's barrier at `bar`'s offset.
__device__ inline void tma_load_multicast(void* to, const CUtensorMap* map, std::uint64_t* bar,
                                          int col, int row, std::uint16_t blocks) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(shared_address(to)),
      "l"(map), "r"(shared_address(bar)), "r"(col), "r"(row), "h"(blocks)
      : "memory");
}

// The other way (stage 18's store): the box at element (col, row) of the map is written from
// shared memory; the parts of it outside the matrix are not written. Asynchronous: the store
// joins this thread's current bulk group.
__device__ inline void tma_store(const CUtensorMap* map, const void* from, int col, int row) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::
                   "l"(map),
               "r"(shared_address(from)), "r"(col), "r"(row)
               : "memory");
}
__device__ inline void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
// Waits until every committed bulk store has read its shared memory (which may then be
// rewritten), or has completed altogether.
__device__ inline void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}
__device__ inline void bulk_wait_done() {
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}
// Orders this thread's ordinary shared-memory writes before later reads by the copy engine.
__device__ inline void fence_shared_for_tma() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// One 32-bit load from and one store to a shared-memory address (shared_address). A pointer
// that went through integer arithmetic (align_to_swizzle) has lost its state space: through it
// the compiler emits generic loads with 64-bit addresses. Volatile, so that they stay between
// the barrier waits around them.
__device__ inline std::uint32_t shared_load_b32(std::uint32_t address) {
  std::uint32_t value;
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(value) : "r"(address) : "memory");
  return value;
}
__device__ inline void shared_store_f32(std::uint32_t address, float value) {
  asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(address), "f"(value) : "memory");
}
// A barrier for `threads` threads (whole warps) under the hardware barrier `id` (0 is
// __syncthreads'): one warpgroup synchronises without stopping the others.
__device__ inline void sync_threads(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// ---- wgmma: the synchronisation around the products -----------------------------------

// Orders this warpgroup's earlier register accesses before the wgmma that follow.
__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
// Closes the wgmma issued since the last commit into one group.
__device__ inline void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Waits until at most `Pending` committed groups are still running.
template <int Pending>
__device__ inline void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}

// ---- flags in global memory, between blocks (stage 19's partial tiles) ------------------

// Publishes this thread's earlier writes (and, after a barrier, its block's) to any thread on
// the GPU that reads the flag with flag_wait.
__device__ inline void flag_set(int* flag) {
  asm volatile("st.release.gpu.global.b32 [%0], 1;\n" ::"l"(flag) : "memory");
}
// Waits until the flag is set, then clears it for the next launch; the writes published
// before it was set are then visible to this thread (and, after a barrier, to its block).
__device__ inline void flag_wait_and_clear(int* flag) {
  int set = 0;
  do {
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(set) : "l"(flag) : "memory");
  } while (set == 0);
  *flag = 0;
}

// ---- registers, clusters --------------------------------------------------------------

// Gives this warpgroup's registers back to the pool (dec) or takes more from it (inc).
template <int Registers>
__device__ inline void registers_decrease() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
}
template <int Registers>
__device__ inline void registers_increase() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
}

__device__ inline std::uint32_t rank_in_cluster() {
  std::uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}
// Every thread of every block in the cluster arrives, then waits for all the others.
__device__ inline void cluster_sync() {
  asm volatile(
      "barrier.cluster.arrive.release.aligned;\n"
      "barrier.cluster.wait.acquire.aligned;\n" ::
          : "memory");
}

}  // namespace ladder::hopper
