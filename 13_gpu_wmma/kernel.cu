#include "13_gpu_wmma/kernel.hpp"

#include <mma.h>

#include "common/aligned_access.hpp"
#include "common/config_table.hpp"
#include "common/cuda_check.hpp"
#include "common/grid.hpp"
#include "common/tensor_cores.hpp"

namespace ladder {
namespace {

using namespace nvcuda;

// A block computes a 128x128 tile of C from 128x32 slices of A and 32x128 slices of B; each of
// its 8 warps a 64x32 part of it: 4x2 WMMA accumulators of 16x16.
constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kSliceK = 32;
constexpr int kWarpM = 64;
constexpr int kWarpN = 32;
constexpr int kFragments = 16;  // the WMMA tile: 16x16x16
constexpr int kThreads = (kBlockM / kWarpM) * (kBlockN / kWarpN) * 32;
// 8 BF16 (16 bytes) of padding per shared row, as stage 08 pads its tile: rows of 80 and
// 272 bytes (20 and 68 words), so 8 consecutive rows start in 8 different groups of 4 banks
// and cover all 32 once; unpadded, B's 256-byte rows would all start in bank 0 and A's
// 64-byte rows in banks 0 and 16 by turns.
constexpr int kPad = 8;

// Elements (row, col..col+7) of an operand, already shifted to the tile, into shared memory:
// one 16-byte load when Vector and the 8 lie inside it, else one by one, zeros outside.
template <bool Vector>
__device__ void copy_8(bf16* to, const MatrixBf16& from, int row, int col) {
  if (Vector && row < from.height && col + 8 <= from.width) {
    *reinterpret_cast<uint4*>(to) =
        *reinterpret_cast<const uint4*>(from.data + row * from.stride + col);
    return;
  }
  for (int i = 0; i < 8; ++i) {
    const bool inside = row < from.height && col + i < from.width;
    to[i] = inside ? from.data[row * from.stride + col + i] : __float2bfloat16(0.0f);
  }
}

template <bool Vector>
__global__ void __launch_bounds__(kThreads) gemm_wmma(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  // WMMA loads and stores want 32-byte-aligned pointers: the bases here, and every fragment's
  // offset (16 rows of 80 or 272 bytes, 16 columns of 2 bytes) is a multiple of 32 bytes.
  __shared__ __align__(32) bf16 a_tile[kBlockM][kSliceK + kPad];
  __shared__ __align__(32) bf16 b_tile[kSliceK][kBlockN + kPad];
  __shared__ __align__(32) float c_staging[kThreads / 32][kFragments * kFragments];

  const int block_row = blockIdx.y * kBlockM;
  const int block_col = blockIdx.x * kBlockN;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int warp_row = warp / (kBlockN / kWarpN) * kWarpM;
  const int warp_col = warp % (kBlockN / kWarpN) * kWarpN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kWarpM / 16][kWarpN / 16];
  for (auto& row : acc) {
    for (auto& fragment : row) wmma::fill_fragment(fragment, 0.0f);
  }

  for (int k0 = 0; k0 < a.width; k0 += kSliceK) {
    // Load: the slices of A and B, 8 elements per copy.
    const MatrixBf16 a_slice = a.sub(block_row, k0, a.height - block_row, a.width - k0);
    const MatrixBf16 b_slice = b.sub(k0, block_col, b.height - k0, b.width - block_col);
    for (int i = threadIdx.x; i < kBlockM * kSliceK / 8; i += kThreads) {
      const int row = i / (kSliceK / 8);
      const int col = i % (kSliceK / 8) * 8;
      copy_8<Vector>(&a_tile[row][col], a_slice, row, col);
    }
    for (int i = threadIdx.x; i < kSliceK * kBlockN / 8; i += kThreads) {
      const int row = i / (kBlockN / 8);
      const int col = i % (kBlockN / 8) * 8;
      copy_8<Vector>(&b_tile[row][col], b_slice, row, col);
    }
    __syncthreads();

    // Compute: per 16-wide step of k, the warp's 4 A and 2 B fragments, 8 tensor-core products.
    for (int kk = 0; kk < kSliceK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a_frag[kWarpM / 16];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> b_frag[kWarpN / 16];
      for (int i = 0; i < kWarpM / 16; ++i) {
        wmma::load_matrix_sync(a_frag[i], &a_tile[warp_row + i * 16][kk], kSliceK + kPad);
      }
      for (int j = 0; j < kWarpN / 16; ++j) {
        wmma::load_matrix_sync(b_frag[j], &b_tile[kk][warp_col + j * 16], kBlockN + kPad);
      }
      for (int i = 0; i < kWarpM / 16; ++i) {
        for (int j = 0; j < kWarpN / 16; ++j) wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
      }
    }
    __syncthreads();
  }

  // Store: which thread holds which accumulator element is not specified for WMMA, so each
  // fragment goes through the warp's staging tile in shared memory, then to C with a guard.
  for (int i = 0; i < kWarpM / 16; ++i) {
    for (int j = 0; j < kWarpN / 16; ++j) {
      wmma::store_matrix_sync(c_staging[warp], acc[i][j], kFragments, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < kFragments * kFragments; e += 32) {
        const int row = block_row + warp_row + i * 16 + e / kFragments;
        const int col = block_col + warp_col + j * 16 + e % kFragments;
        if (row < c.height && col < c.width) c.set(row, col, c_staging[warp][e]);
      }
      __syncwarp();
    }
  }
}

void launch(OperandPath path, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  const dim3 grid = grid_covering(c.width, c.height, kBlockN, kBlockM);
  if (path == OperandPath::sixteen_byte) {
    gemm_wmma<true><<<grid, kThreads>>>(a, b, c);
  } else {
    gemm_wmma<false><<<grid, kThreads>>>(a, b, c);
  }
  CUDA_CHECK_LAUNCH();
}

const NamedLaunch<void (*)(OperandPath, MatrixBf16, MatrixBf16, Matrix)> kTilings[] = {
    {"128x128x32", launch},
};

}  // namespace

std::vector<std::string> wmma_configs() { return config_names(kTilings); }

OperandPath launch_gemm_wmma(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  const auto& tiling = find_config(kTilings, config, "stage 13 has no tiling");
  check_gemm_shapes(a, b, c);
  require_bf16_tensor_cores();
  const OperandPath path = sixteen_byte_path({a, b});
  if (c.empty()) return path;
  tiling.launch(path, a, b, c);
  return path;
}

}  // namespace ladder
