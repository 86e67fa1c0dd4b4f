// Stage 04: the matrix product in tiles staged through shared memory, so that each element
// of A and B is read from global memory once per tile instead of once per product.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// What one step of the K loop stages in shared memory (shared-storage compares the two).
enum class TilePolicy {
  square,  // a tile x tile block of A and of B (guide-ja, smem-matmul, gemm-opt)
  wide,    // a tile x 4*tile slab of A and a 4*tile x tile slab of B (shared-storage)
};

// c = a * b on device views (c is a.height x b.width, a.width == b.height), any sizes and
// strides. tile is 8, 16 or 32: blocks of tile x tile threads, one element of C each.
// Returns once the kernel is queued; launch errors throw CudaError, a bad tile
// std::invalid_argument.
void launch_gemm_tiled(TilePolicy policy, int tile, Matrix a, Matrix b, Matrix c);

// The square kernel with one of its two __syncthreads() removed: a data race on purpose,
// for compute-sanitizer --tool racecheck to find. Its result may or may not be wrong.
enum class DroppedSync {
  after_load,     // threads may read tile elements that others have not stored yet
  after_compute,  // fast threads may overwrite tiles that slow ones are still reading
};
void launch_gemm_tiled_racy(DroppedSync dropped, int tile, Matrix a, Matrix b, Matrix c);

}  // namespace ladder
