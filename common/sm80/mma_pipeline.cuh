// The cp.async ring of mma.sync warp tiles that stage 15 teaches. It lives here because every
// Hopper launcher falls back to it (common/sm80/fallback.hpp) where A's or B's rows allow no
// tensor map: stage 15's kernel file holds its tilings, this file the kernel.
#pragma once

#include "common/cuda_check.hpp"
#include "common/grid.hpp"
#include "common/sm80/mma_tile.cuh"  // and the headers it includes
#include "common/tile_order.cuh"

namespace ladder::mma {

// ---- cp.async: a 16-byte copy from global to shared memory that does not wait -------------
// Copies `bytes` (0-16) from `from` and fills the rest of the 16 with zeros: how the edges of
// the matrix become zeros in the slice without a branch around the copy.
__device__ inline void cp_async_16(bf16* to, const bf16* from, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(to)),
               "l"(from), "r"(bytes)
               : "memory");
}
__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Waits until at most `Pending` of this thread's committed groups are still in flight.
template <int Pending>
__device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

struct CopyAsync {
  __device__ void operator()(int, bf16* to, const bf16* from, int valid) const {
    cp_async_16(to, from, valid * static_cast<int>(sizeof(bf16)));
  }
};

// The fallback's copy of one operand's slice: every chunk this thread copies loaded first, all
// loads in flight at once, then stored (as stage 14 does for both operands; one at a time here,
// which needs half the registers).
template <int Width, int Rows, int Threads, bool Swizzle, bool Vector>
__device__ void copy_operand_through_registers(bf16* slice, const MatrixBf16& from) {
  uint4 staged[Rows * Width / kChunk / Threads];
  copy_operand_slice<Width, Rows, Swizzle, Threads, 0>(
      slice, from,
      [&](int i, bf16*, const bf16* source, int valid) { staged[i] = load_chunk<Vector>(source, valid); });
  copy_operand_slice<Width, Rows, Swizzle, Threads, 0>(
      slice, from,
      [&](int i, bf16* to, const bf16*, int) { *reinterpret_cast<uint4*>(to) = staged[i]; });
}

// ---- The kernel -------------------------------------------------------------------------
template <int BlockM, int BlockN, int WarpM, int WarpN, int Stages, int GroupM = 1,
          int BlocksPerSM = 1, bool DoubleFragments = false>
struct PipelineConfig {
  static constexpr bool kDoubleFragments = DoubleFragments;
  static constexpr int kBlocksPerSM = BlocksPerSM;  // asked of the compiler: caps registers
  static constexpr int kGroupM = GroupM;  // tile rows per rasterisation group (1: row order)
  using Tile = WarpTile<BlockM, BlockN, WarpM, WarpN, true>;
  static constexpr int kBlockM = BlockM;
  static constexpr int kBlockN = BlockN;
  static constexpr int kStages = Stages;
  static constexpr int kThreads = Tile::kThreads;
  static constexpr int kSharedBytes = Stages * Tile::kSliceElements * sizeof(bf16);
};

// Async: the 16-byte cp.async path. Otherwise the fallback for rows that are not 16-byte
// aligned: element-by-element copies through registers, as stage 14's, into the same ring (the
// cp.async groups are then empty, and the copy is not overlapped).
template <class Cfg, bool Async>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kBlocksPerSM)
    gemm_mma_pipelined(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  extern __shared__ __align__(128) bf16 ring[];  // Stages x (A slice, B slice)
  constexpr int kStages = Cfg::kStages;
  constexpr bool kSwizzle = Cfg::Tile::kSwizzle;
  constexpr int kSliceA = Cfg::kBlockM * kSliceK;
  constexpr int kSlice = Cfg::Tile::kSliceElements;
  // Rasterisation in groups of kGroupM tile rows (common/tile_order.cuh).
  const int tiles_n = gridDim.x;
  const int block = blockIdx.y * tiles_n + blockIdx.x;
  const TileOrigin origin = grouped_tile_origin(block, static_cast<int>(gridDim.y), tiles_n,
                                                Cfg::kGroupM, Cfg::kBlockM, Cfg::kBlockN);
  const int block_row = origin.row;
  const int block_col = origin.col;
  const int warp = threadIdx.x / 32;
  const typename Cfg::Tile tile(warp, threadIdx.x % 32);
  typename Cfg::Tile::Accumulators acc = {};
  const int slices = (a.width + kSliceK - 1) / kSliceK;

  // Load: slice `s` into stage s % kStages, as one cp.async group.
  auto load_slice = [&](int s) {
    if (s < slices) {
      const int k0 = s * kSliceK;
      bf16* stage = ring + s % kStages * kSlice;
      const MatrixBf16 a_part = a.sub(block_row, k0, a.height - block_row, a.width - k0);
      const MatrixBf16 b_part = b.sub(k0, block_col, b.height - k0, b.width - block_col);
      if constexpr (Async) {
        copy_slice<Cfg::kBlockM, Cfg::kBlockN, Cfg::kThreads, kSwizzle>(
            stage, stage + kSliceA, a_part, b_part, CopyAsync{});
      } else {
        // One operand at a time: the 64x64 warp tiles leave no registers for both.
        copy_operand_through_registers<kSliceK, Cfg::kBlockM, Cfg::kThreads, kSwizzle, false>(
            stage, a_part);
        copy_operand_through_registers<Cfg::kBlockN, kSliceK, Cfg::kThreads, kSwizzle, false>(
            stage + kSliceA, b_part);
      }
    }
    cp_async_commit();  // an empty group past the last slice keeps the count of groups simple
  };

  for (int s = 0; s < kStages - 1; ++s) load_slice(s);
  for (int s = 0; s < slices; ++s) {
    cp_async_wait<kStages - 2>();  // this thread's copies of slice s have landed...
    __syncthreads();  // ...and everyone's; and every warp is done with slice s - 1's stage
    load_slice(s + kStages - 1);  // into that stage, while the tensor cores work on slice s
    const bf16* stage = ring + s % kStages * kSlice;
    tile.template multiply_slice<Cfg::kDoubleFragments>(stage, stage + kSliceA, acc);
  }
  store_accumulators<typename Cfg::Tile>(c, block_row, block_col, warp, threadIdx.x % 32, acc);
}

// Launches the kernel built for Cfg on checked operands, on `path` (sixteen_byte_path of a and
// b): one block per BlockM x BlockN tile of c.
template <class Cfg>
void launch_mma_pipelined(OperandPath path, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  auto kernel = path == OperandPath::sixteen_byte ? gemm_mma_pipelined<Cfg, true>
                                                  : gemm_mma_pipelined<Cfg, false>;
  // More than 48 KB of dynamic shared memory must be asked for, per kernel and per device.
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  Cfg::kSharedBytes));
  const dim3 grid = grid_covering(c.width, c.height, Cfg::kBlockN, Cfg::kBlockM);
  kernel<<<grid, Cfg::kThreads, Cfg::kSharedBytes>>>(a, b, c);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder::mma
