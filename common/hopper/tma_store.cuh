// The persistent kernels' epilogue: a consumer warpgroup's accumulators go out to C through
// a staging buffer in shared memory and TMA stores, so that the writes overlap the next tile.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only: nothing here calls the driver)

#include "common/hopper/tma.cuh"
#include "common/hopper/warpgroup.cuh"

namespace ladder::hopper {

// The staging, per consumer: 64 rows x 64 FP32 columns as two 32-column boxes, 16 KB. For
// 128 x 256 tiles, 4 x 48 KB slots + 2 x 16 KB + 1 KB + barriers = 230,464 bytes: the H100 has
// 232,448 a block.
constexpr int kStagingBytes = 64 * 64 * 4;

// A consumer's 64 x N strip of accumulators out in 64-column passes. Each pass its threads write
// 64 x 64 values into the staging buffer in the 128-byte swizzle that the TMA store reads (16-byte
// chunk q of row r at chunk q ^ (r % 8)), and one thread hands the two 32-column boxes to TMA,
// which clips them at C's edges. (A half-warp's 4 rows reach 4 of the 8 chunk positions: 2-way
// bank conflicts.) The writes to C overlap the next tile's products.
template <int N>
__device__ inline void store_strip_through_tma(const CUtensorMap* c_map, unsigned char* staging,
                                               const float (&acc)[N / 2], int row0, int col0,
                                               int thread, int barrier_id) {
  const int row = thread / 32 * 16 + thread % 32 / 4;
#pragma unroll
  for (int pass = 0; pass < N / 64; ++pass) {
    if (thread == 0) bulk_wait_read();  // the last pass's boxes have left the buffer
    sync_threads(barrier_id, 128);
#pragma unroll
    for (int group = 0; group < 8; ++group) {  // 8-column groups of this pass
      const int j = pass * 8 + group;
      const int col = group * 8 + thread % 4 * 2;  // 0..63 within the pass
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
      tma_store(c_map, staging, col0 + pass * 64, row0);
      tma_store(c_map, staging + 64 * 128, col0 + pass * 64 + 32, row0);
      bulk_commit();
    }
  }
}

}  // namespace ladder::hopper
