#include "15_gpu_mma_pipelined/kernel.hpp"

#include "14_gpu_mma_ldmatrix/mma_tile.cuh"
#include "common/config_table.hpp"
#include "common/cuda_check.hpp"
#include "common/errors.hpp"
#include "common/grid.hpp"
#include "common/shared_address.cuh"
#include "common/tensor_cores.hpp"
#include "common/tile_order.cuh"

namespace ladder {
namespace {

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

// ---- The kernel -------------------------------------------------------------------------

template <int BlockM, int BlockN, int WarpM, int WarpN, int Stages, int GroupM = 1,
          int BlocksPerSM = 1, bool DoubleFragments = false>
struct Config {
  static constexpr bool kDoubleFragments = DoubleFragments;
  static constexpr int kBlocksPerSM = BlocksPerSM;  // asked of the compiler: caps registers
  static constexpr int kGroupM = GroupM;  // tile rows per rasterisation group (1: row order)
  using Tile = mma::WarpTile<BlockM, BlockN, WarpM, WarpN, true>;
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
  constexpr int kSliceA = Cfg::kBlockM * mma::kSliceK;
  constexpr int kSlice = Cfg::Tile::kSliceElements;
  // Rasterisation: consecutive blocks walk down a group of kGroupM tile rows before moving
  // right, so the blocks resident together share slices of B as well as of A.
  const int tiles_n = gridDim.x;
  const int block = blockIdx.y * tiles_n + blockIdx.x;
  const TileOrigin origin = grouped_tile_origin(block, static_cast<int>(gridDim.y), tiles_n,
                                                Cfg::kGroupM, Cfg::kBlockM, Cfg::kBlockN);
  const int block_row = origin.row;
  const int block_col = origin.col;
  const int warp = threadIdx.x / 32;
  const typename Cfg::Tile tile(warp, threadIdx.x % 32);
  typename Cfg::Tile::Accumulators acc = {};
  const int slices = (a.width + mma::kSliceK - 1) / mma::kSliceK;

  // Load: slice `s` into stage s % kStages, as one cp.async group.
  auto load_slice = [&](int s) {
    if (s < slices) {
      const int k0 = s * mma::kSliceK;
      bf16* stage = ring + s % kStages * kSlice;
      const MatrixBf16 a_part = a.sub(block_row, k0, a.height - block_row, a.width - k0);
      const MatrixBf16 b_part = b.sub(k0, block_col, b.height - k0, b.width - block_col);
      if constexpr (Async) {
        mma::copy_slice<Cfg::kBlockM, Cfg::kBlockN, Cfg::kThreads, kSwizzle>(
            stage, stage + kSliceA, a_part, b_part, CopyAsync{});
      } else {
        // One operand at a time: the 64x64 warp tiles leave no registers for both.
        mma::copy_operand_through_registers<mma::kSliceK, Cfg::kBlockM, Cfg::kThreads, kSwizzle,
                                            false>(stage, a_part);
        mma::copy_operand_through_registers<Cfg::kBlockN, mma::kSliceK, Cfg::kThreads, kSwizzle,
                                            false>(stage + kSliceA, b_part);
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
  // Store.
  mma::store_accumulators<typename Cfg::Tile>(c, block_row, block_col, warp, threadIdx.x % 32, acc);
}

struct Tiling {
  const char* name;
  int shared_bytes;
  void (*launch)(OperandPath path, MatrixBf16 a, MatrixBf16 b, Matrix c);
};

template <class Cfg>
void launch(OperandPath path, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  auto kernel = path == OperandPath::sixteen_byte ? gemm_mma_pipelined<Cfg, true>
                                                  : gemm_mma_pipelined<Cfg, false>;
  // More than 48 KB of dynamic shared memory must be asked for, per kernel and per device.
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  Cfg::kSharedBytes));
  const dim3 grid = grid_covering(c.width, c.height, Cfg::kBlockN, Cfg::kBlockM);
  kernel<<<grid, Cfg::kThreads, Cfg::kSharedBytes>>>(a, b, c);
  CUDA_CHECK_LAUNCH();
}

template <class Cfg>
Tiling tiling(const char* name) {
  return Tiling{name, Cfg::kSharedBytes, launch<Cfg>};
}

// block MxN, warp MxN, stages, rasterisation group (g8: 8 tile rows), blocks per SM asked of
// the compiler (b2: at most 128 registers a thread), double-buffered fragments (df). The first
// is the default.
const Tiling kTilings[] = {
    tiling<Config<128, 128, 64, 64, 3>>("128x128_w64x64_s3"),
    tiling<Config<128, 128, 64, 64, 3, 8>>("128x128_w64x64_s3_g8"),
    tiling<Config<128, 128, 64, 32, 3, 1, 2>>("128x128_w64x32_s3_b2"),
    tiling<Config<128, 128, 64, 64, 3, 1, 1, true>>("128x128_w64x64_s3_df"),
    tiling<Config<128, 256, 64, 64, 3>>("128x256_w64x64_s3"),
    tiling<Config<128, 128, 64, 64, 2>>("128x128_w64x64_s2"),
    tiling<Config<128, 128, 64, 64, 4>>("128x128_w64x64_s4"),
};

const Tiling& find(const std::string& config) {
  return find_config(kTilings, config, "stage 15 has no tiling");
}

}  // namespace

std::vector<std::string> mma_pipelined_configs() { return config_names(kTilings); }

std::string mma_pipelined_unfit_reason(const std::string& config) {
  const Tiling& t = find(config);
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int limit = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (t.shared_bytes <= limit) return "";
  return "tiling " + config + " needs " + std::to_string(t.shared_bytes) +
         " bytes of shared memory per block; this GPU allows " + std::to_string(limit);
}

OperandPath launch_gemm_mma_pipelined(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                      Matrix c) {
  const Tiling& t = find(config);
  check_gemm_shapes(a, b, c);
  require_bf16_tensor_cores();
  const std::string unfit = mma_pipelined_unfit_reason(config);
  if (!unfit.empty()) throw UsageError(unfit);
  const OperandPath path = sixteen_byte_path({a, b});
  if (c.empty()) return path;
  t.launch(path, a, b, c);
  return path;
}

}  // namespace ladder
