// The launch of one block per tile of C, for the Hopper kernels that are not persistent.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only)

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"

namespace ladder {

// A kernel that computes one tile of C per block: A's and B's tensor maps, K, and C.
using PerTileKernel = void (*)(CUtensorMap a_map, CUtensorMap b_map, int k, Matrix c);

// What such a kernel is built for: one block of `threads` per block_m x block_n tile of C,
// `shared_bytes` of dynamic shared memory each.
struct PerTileShape {
  int block_m;
  int block_n;
  int threads;
  int shared_bytes;
};

// Launches `kernel` with one block per tile of c, given A's tensor map (boxes of 64 columns x
// block_m rows) and B's (64 x 64 boxes).
void launch_per_tile(PerTileKernel kernel, const PerTileShape& shape, MatrixBf16 a, MatrixBf16 b,
                     Matrix c);

// The same for a kernel built for the tile type T (its kBlockM, kBlockN, kThreads and
// kSharedBytes).
template <class T>
void launch_per_tile(PerTileKernel kernel, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  launch_per_tile(kernel, {T::kBlockM, T::kBlockN, T::kThreads, T::kSharedBytes}, a, b, c);
}

}  // namespace ladder
