#include "14_gpu_mma_ldmatrix/kernel.hpp"

#include "common/aligned_access.hpp"
#include "common/sm80/mma_tile.cuh"
#include "common/config_table.hpp"
#include "common/cuda_check.hpp"
#include "common/grid.hpp"
#include "common/tensor_cores.hpp"

namespace ladder {
namespace mma {

template <int BlockM, int BlockN, int Threads>
inline constexpr int kChunksPerThread = (BlockM + BlockN) * kSliceK / kChunk / Threads;

// Through registers: every chunk this thread copies is loaded first, all loads in flight at
// once, then stored to shared memory. (One chunk at a time, each load's latency would be paid
// in turn: results/15_gpu_mma_pipelined/notes.md.)
template <int BlockM, int BlockN, int Threads, bool Swizzle, bool Vector>
__device__ void copy_slice_through_registers(bf16* a_slice, bf16* b_slice, const MatrixBf16& a,
                                             const MatrixBf16& b) {
  uint4 staged[kChunksPerThread<BlockM, BlockN, Threads>];
  copy_slice<BlockM, BlockN, Threads, Swizzle>(
      a_slice, b_slice, a, b,
      [&](int i, bf16*, const bf16* from, int valid) { staged[i] = load_chunk<Vector>(from, valid); });
  copy_slice<BlockM, BlockN, Threads, Swizzle>(
      a_slice, b_slice, a, b,
      [&](int i, bf16* to, const bf16*, int) { *reinterpret_cast<uint4*>(to) = staged[i]; });
}

}  // namespace mma

namespace {

// A 128x128 tile of C per block from 128x64 and 64x128 slices; 8 warps of 64x32 (stage 11's
// shape of work: each warp reads 64 rows of A and 32 columns of B per slice).
constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
using Tile = mma::WarpTile<kBlockM, kBlockN, 64, 32, true>;
using TileUnswizzled = mma::WarpTile<kBlockM, kBlockN, 64, 32, false>;
constexpr int kThreads = Tile::kThreads;
constexpr int kSharedBytes = Tile::kSliceElements * sizeof(bf16);  // 32 KB

// Two blocks per SM (at most 128 registers a thread): while one waits for its loads, the other
// computes. There is no other latency hiding in this stage.
template <class WarpTile, bool Vector>
__global__ void __launch_bounds__(kThreads, 2) gemm_mma(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  __shared__ __align__(128) bf16 a_slice[kBlockM * mma::kSliceK];
  __shared__ __align__(128) bf16 b_slice[mma::kSliceK * kBlockN];
  const int block_row = blockIdx.y * kBlockM;
  const int block_col = blockIdx.x * kBlockN;
  const int warp = threadIdx.x / 32;
  const WarpTile tile(warp, threadIdx.x % 32);
  typename WarpTile::Accumulators acc = {};

  for (int k0 = 0; k0 < a.width; k0 += mma::kSliceK) {
    // Load both slices through registers, then wait for every warp's copies.
    mma::copy_slice_through_registers<kBlockM, kBlockN, kThreads, WarpTile::kSwizzle, Vector>(
        a_slice, b_slice, a.sub(block_row, k0, a.height - block_row, a.width - k0),
        b.sub(k0, block_col, b.height - k0, b.width - block_col));
    __syncthreads();
    // Compute: four 16-wide steps of k, 4x4 mma.sync per warp each.
    tile.multiply_slice(a_slice, b_slice, acc);
    __syncthreads();  // before the next slice overwrites what slower warps still read
  }
  mma::store_accumulators<WarpTile>(c, block_row, block_col, warp, threadIdx.x % 32, acc);
}

template <class WarpTile>
void launch(OperandPath path, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  static_assert(kSharedBytes <= 48 * 1024, "static shared memory");
  const dim3 grid = grid_covering(c.width, c.height, kBlockN, kBlockM);
  if (path == OperandPath::sixteen_byte) {
    gemm_mma<WarpTile, true><<<grid, kThreads>>>(a, b, c);
  } else {
    gemm_mma<WarpTile, false><<<grid, kThreads>>>(a, b, c);
  }
  CUDA_CHECK_LAUNCH();
}

const NamedLaunch<void (*)(OperandPath, MatrixBf16, MatrixBf16, Matrix)> kLayouts[] = {
    {"swizzled", launch<Tile>},
    {"unswizzled", launch<TileUnswizzled>},  // the ablation: plain rows, bank conflicts
};

}  // namespace

std::vector<std::string> mma_configs() { return config_names(kLayouts); }

OperandPath launch_gemm_mma(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  const auto& layout = find_config(kLayouts, config, "stage 14 has no layout");
  check_gemm_shapes(a, b, c);
  require_bf16_tensor_cores();
  const OperandPath path = sixteen_byte_path({a, b});
  if (c.empty()) return path;
  layout.launch(path, a, b, c);
  return path;
}

}  // namespace ladder
