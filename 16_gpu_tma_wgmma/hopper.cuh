// Hopper's instructions as small device functions, shared by stages 16-18: mbarriers, TMA
// copies, wgmma descriptors and groups, register reallocation, clusters; and the two pieces
// every one of those kernels repeats: the product of one 64-deep slice and the store of a
// warpgroup's accumulators. Each wrapper is one PTX instruction (PTX ISA 8.0, sm_90a).
#pragma once

#include <cuda.h>  // CUtensorMap (a type only: nothing here calls the driver)

#include <cstdint>

#include "16_gpu_tma_wgmma/wgmma.cuh"
#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/tensor_map.hpp"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "stages 16-18 use wgmma and setmaxnreg, which exist only in sm_90a code (ladder_stage ... ARCH 90a)"
#endif

namespace ladder::hopper {

// Every slice is 64 BF16 deep: 128 bytes, one row of the 128-byte swizzle that TMA writes and
// wgmma reads. A slot's A part is rows x 64 (K-major); its B part is 64 x 64 boxes side by side.
constexpr int kSliceK = 64;
constexpr int kSliceRowBytes = kSliceK * 2;     // one row of a slice, of A or of a B box
constexpr int kBoxBytes = 64 * kSliceRowBytes;  // one 64 x 64 BF16 box of B: 8 KB
constexpr int kSwizzleAtomBytes = 1024;      // 8 rows x 128 bytes: the swizzle's period

__device__ inline std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

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
// A barrier for `threads` threads (whole warps) under the hardware barrier `id` (0 is
// __syncthreads'): one warpgroup synchronises without stopping the others.
__device__ inline void sync_threads(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// ---- wgmma -----------------------------------------------------------------------------

// A shared-memory matrix descriptor for the 128-byte swizzle (PTX ISA, "Matrix Descriptor
// Format"): start address, leading and stride byte offsets, each in 16-byte units, and the
// swizzle mode in bits 62-63. For A (K-major) `stride` is the distance between groups of 8
// rows (1024 bytes) and `leading` is unused; for B (N-major) `leading` is the distance between
// 64-wide column blocks (one box, 8 KB) and `stride` between groups of 8 K-rows (1024).
__device__ inline std::uint64_t descriptor(const void* tile, std::uint32_t leading,
                                           std::uint32_t stride) {
  std::uint64_t d = (shared_address(tile) & 0x3FFFF) >> 4;
  d |= static_cast<std::uint64_t>((leading & 0x3FFFF) >> 4) << 16;
  d |= static_cast<std::uint64_t>((stride & 0x3FFFF) >> 4) << 32;
  d |= 1ull << 62;  // 128-byte swizzle
  return d;
}
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

template <int N>
__device__ inline void wgmma_k16(float (&d)[N / 2], std::uint64_t a, std::uint64_t b,
                                 int accumulate) {
  static_assert(N == 128 || N == 192 || N == 256,
                "scripts/wgmma_wrappers.py writes n128, n192 and n256");
  if constexpr (N == 128) wgmma_m64n128k16(d, a, b, accumulate);
  if constexpr (N == 192) wgmma_m64n192k16(d, a, b, accumulate);
  if constexpr (N == 256) wgmma_m64n256k16(d, a, b, accumulate);
}
// The same for TF32 operands (stage 18's TF32 variant): 8 deep, A and B both K-major.
template <int N>
__device__ inline void wgmma_k8_tf32(float (&d)[N / 2], std::uint64_t a, std::uint64_t b,
                                     int accumulate) {
  static_assert(N == 192 || N == 256, "scripts/wgmma_wrappers.py writes TF32 n192 and n256");
  if constexpr (N == 192) wgmma_m64n192k8_tf32(d, a, b, accumulate);
  if constexpr (N == 256) wgmma_m64n256k8_tf32(d, a, b, accumulate);
}

// One warpgroup: acc (64 x N) += a_strip (64 rows of a slot's A part) * b_slot (the slot's
// 64 x N B part), as four k16 steps. A K-step moves 32 bytes along A's 128-byte rows and 16
// rows (2 KB) down B's boxes; the hardware applies the swizzle to the addresses. accumulate ==
// false starts the tile (the first slice overwrites whatever acc held).
template <int N>
__device__ inline void multiply_slice(const bf16* a_strip, const bf16* b_slot,
                                      float (&acc)[N / 2], bool accumulate) {
#pragma unroll
  for (int k = 0; k < kSliceK / 16; ++k) {
    const std::uint64_t a = descriptor(a_strip + k * 16, 16, kSwizzleAtomBytes);
    const std::uint64_t b = descriptor(b_slot + k * 16 * 64, kBoxBytes, kSwizzleAtomBytes);
    wgmma_k16<N>(acc, a, b, (accumulate || k > 0) ? 1 : 0);
  }
}

// The same product for stage 18's TF32 variant: a slice is 32 floats deep (the same 128-byte
// rows), and B^T's slot is K-major like A's, so both descriptors step 32 bytes along the rows
// (four k8 steps) with 8-row groups 1024 bytes apart.
template <int N>
__device__ inline void multiply_slice_tf32(const float* a_strip, const float* b_t_slot,
                                           float (&acc)[N / 2], bool accumulate) {
  constexpr int kSliceFloats = kSliceRowBytes / 4;
#pragma unroll
  for (int k = 0; k < kSliceFloats / 8; ++k) {
    const std::uint64_t a = descriptor(a_strip + k * 8, 16, kSwizzleAtomBytes);
    const std::uint64_t b = descriptor(b_t_slot + k * 8, 16, kSwizzleAtomBytes);
    wgmma_k8_tf32<N>(acc, a, b, (accumulate || k > 0) ? 1 : 0);
  }
}

// Writes a warpgroup's 64 x N accumulators to c at (row0, col0), guarded at c's edges. The
// wgmma layout: thread t holds rows 16 * (t / 32) + (t % 32) / 4 and 8 below it, and in each
// 8-column group j the columns 8j + 2 (t % 4) and one to its right: pairs, stored as float2
// where c's rows allow 8-byte stores.
template <int N>
__device__ inline void store_strip(const Matrix& c, const float (&acc)[N / 2], int row0, int col0,
                                   int thread) {
  const int row = row0 + thread / 32 * 16 + thread % 32 / 4;
  const bool pairs = c.stride % 2 == 0 && reinterpret_cast<std::uintptr_t>(c.data) % 8 == 0;
#pragma unroll
  for (int j = 0; j < N / 8; ++j) {
    const int col = col0 + j * 8 + thread % 4 * 2;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = row + half * 8;
      if (r >= c.height) continue;
      float* out = c.data + static_cast<std::size_t>(r) * c.stride + col;
      const float x = acc[j * 4 + half * 2];
      const float y = acc[j * 4 + half * 2 + 1];
      if (pairs && col + 1 < c.width) {
        *reinterpret_cast<float2*>(out) = make_float2(x, y);
      } else {
        if (col < c.width) out[0] = x;
        if (col + 1 < c.width) out[1] = y;
      }
    }
  }
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

// Dynamic shared memory rounded up to the swizzle's 1024-byte period, which TMA's 128-byte
// swizzle and the descriptors above assume (the launchers ask for 1 KB extra).
__device__ inline unsigned char* align_to_swizzle(unsigned char* p) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<unsigned char*>((at + kSwizzleAtomBytes - 1) &
                                          ~std::uintptr_t{kSwizzleAtomBytes - 1});
}

// The launch of stages 16 and 17: one block of T::kThreads per T::kBlockM x T::kBlockN tile of
// c, given A's tensor map (boxes of 64 columns x kBlockM rows) and B's (64 x 64 boxes).
template <class T, class Kernel>
void launch_per_tile(Kernel kernel, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  const CUtensorMap a_map = make_tensor_map_2d(a, kSliceK, T::kBlockM);
  const CUtensorMap b_map = make_tensor_map_2d(b, 64, kSliceK);
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  T::kSharedBytes));
  const long long tiles = static_cast<long long>((c.height + T::kBlockM - 1) / T::kBlockM) *
                          ((c.width + T::kBlockN - 1) / T::kBlockN);
  kernel<<<static_cast<unsigned>(tiles), T::kThreads, T::kSharedBytes>>>(a_map, b_map, a.width,
                                                                         c);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder::hopper
