// What the Hopper kernels build for a warpgroup (four warps that issue wgmma together): the ring
// of shared-memory slots that TMA fills and wgmma reads, the descriptors that name a slot, the
// BF16 product of one slice and the synchronisation around it, the store of the accumulators and
// a barrier for one warpgroup. The wgmma instructions themselves are in wgmma.cuh (PTX ISA 8.0).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_bf16.h>

#include "common/hopper/wgmma.cuh"
#include "common/matrix.hpp"
#include "common/shared_address.cuh"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "the Hopper stages use wgmma and setmaxnreg: sm_90a code only (ladder_stage ... ARCH 90a)"
#endif

namespace ladder::hopper {

// Every slice is 64 BF16 deep: 128 bytes, one row of the 128-byte swizzle that TMA writes and
// wgmma reads. A slot's A part is rows x 64 (K-major); its B part is 64 x 64 boxes side by side.
constexpr int kSliceK = 64;
constexpr int kSliceRowBytes = kSliceK * 2;       // one row of a slice, of A or of a B box
constexpr int kSliceFloats = kSliceRowBytes / 4;  // a TF32 slice: 32 floats, the same 128 bytes
constexpr int kBoxBytes = 64 * kSliceRowBytes;    // one 64 x 64 BF16 box of B: 8 KB
constexpr int kSwizzleAtomBytes = 1024;           // 8 rows x 128 bytes: the swizzle's period

// A block's BlockM x BlockN tile of C and the ring of Slots slots it loads into, each a slice of
// A (BlockM rows) and one of B (BlockN / 64 boxes), in dynamic shared memory: then StagingBytes
// of the kernel's own (the epilogue's), then BarriersPerSlot mbarriers of 8 bytes a slot, and 1 KB
// to align the ring to the swizzle's period (align_to_swizzle).
template <int BlockM, int BlockN, int Slots, int BarriersPerSlot, int StagingBytes = 0>
struct SlotRing {
  static constexpr int kBlockM = BlockM;
  static constexpr int kBlockN = BlockN;
  static constexpr int kSlots = Slots;
  static constexpr int kSliceABytes = BlockM * kSliceRowBytes;
  static constexpr int kSlotBytes = kSliceABytes + BlockN * kSliceRowBytes;
  static constexpr int kSharedBytes =
      kSwizzleAtomBytes + Slots * kSlotBytes + StagingBytes + BarriersPerSlot * Slots * 8;
};

// Dynamic shared memory rounded up to the swizzle's 1024-byte period, which TMA's 128-byte
// swizzle and the descriptors below assume.
__device__ inline unsigned char* align_to_swizzle(unsigned char* p) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<unsigned char*>((at + kSwizzleAtomBytes - 1) &
                                          ~std::uintptr_t{kSwizzleAtomBytes - 1});
}

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
  static_assert(N == 64 || N == 128 || N == 192 || N == 256,
                "scripts/wgmma_wrappers.py writes n64, n128, n192 and n256");
  if constexpr (N == 64) wgmma_m64n64k16(d, a, b, accumulate);
  if constexpr (N == 128) wgmma_m64n128k16(d, a, b, accumulate);
  if constexpr (N == 192) wgmma_m64n192k16(d, a, b, accumulate);
  if constexpr (N == 256) wgmma_m64n256k16(d, a, b, accumulate);
}

// One warpgroup: acc (64 x N) += a_strip (64 rows of a slot's A part) * b_slot (the slot's
// 64 x N B part), as four k16 steps. A K-step moves 32 bytes along A's 128-byte rows and 16
// rows (2 KB) down B's boxes; the hardware applies the swizzle to the addresses. accumulate ==
// false starts the tile (the first slice overwrites whatever acc held).
template <int N>
__device__ inline void multiply_slice(const __nv_bfloat16* a_strip, const __nv_bfloat16* b_slot,
                                      float (&acc)[N / 2], bool accumulate) {
#pragma unroll
  for (int k = 0; k < kSliceK / 16; ++k) {
    const std::uint64_t a = descriptor(a_strip + k * 16, 16, kSwizzleAtomBytes);
    const std::uint64_t b = descriptor(b_slot + k * 16 * 64, kBoxBytes, kSwizzleAtomBytes);
    wgmma_k16<N>(acc, a, b, (accumulate || k > 0) ? 1 : 0);
  }
}

// Writes a warpgroup's 64 x N accumulators to c at (row0, col0), guarded at c's edges. The
// wgmma layout: thread t holds rows 16 * (t / 32) + (t % 32) / 4 and 8 below it, and in each
// 8-column group j the columns 8j + 2 (t % 4) and one to its right: pairs, stored as float2
// where c's rows allow 8-byte stores (allows_float2).
template <int N>
__device__ inline void store_strip(const Matrix& c, const float (&acc)[N / 2], int row0, int col0,
                                   int thread) {
  const int row = row0 + thread / 32 * 16 + thread % 32 / 4;
  const bool pairs = allows_float2(c);
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

// A barrier for `threads` threads (whole warps) under the hardware barrier `id` (0 is
// __syncthreads'): one warpgroup synchronises without stopping the others.
__device__ inline void sync_threads(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace ladder::hopper
