#include "22_gpu_fp8/quantize.hpp"

#include <cuda_fp8.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "common/grid.hpp"

namespace ladder {
namespace {

__device__ inline unsigned char to_e4m3(float x) {
  return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
}

// Whether (row, col) with col % 4 == 0 starts 4 bytes that can go out as one 32-bit store.
__device__ inline bool allows_words(const MatrixFp8& m) {
  return m.stride % 4 == 0 && reinterpret_cast<std::uintptr_t>(m.data) % 4 == 0;
}

// The largest |x| of src, gathered as the bits of a non-negative float: for those, integer
// order is float order, so an atomic maximum on the bits is one on the values. fmaxf passes
// NaN over. Each thread takes kRowsPerThread rows 8 apart (independent loads in flight); a
// warp, then the block, reduce before the one atomic per block.
constexpr int kRowsPerThread = 16;

__global__ void largest_magnitude_kernel(Matrix src, unsigned* largest_bits) {
  const int col = blockIdx.x * 32 + threadIdx.x;
  float largest = 0.0f;
  if (col < src.width) {
    for (int row0 = blockIdx.y * 8 * kRowsPerThread + threadIdx.y; row0 < src.height;
         row0 += gridDim.y * 8 * kRowsPerThread) {
#pragma unroll
      for (int i = 0; i < kRowsPerThread; ++i) {
        const int row = row0 + i * 8;
        if (row < src.height) largest = fmaxf(largest, fabsf(src.get(row, col)));
      }
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    largest = fmaxf(largest, __shfl_xor_sync(0xFFFFFFFFu, largest, offset));
  }
  __shared__ float per_warp[8];
  if (threadIdx.x == 0) per_warp[threadIdx.y] = largest;
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    for (int warp = 1; warp < 8; ++warp) largest = fmaxf(largest, per_warp[warp]);
    atomicMax(largest_bits, __float_as_uint(largest));
  }
}

// The division of e4m3_scale (IEEE, as on the host), once the maximum's bits are in
// `dequantize` (for a non-negative float, its bits read as the float itself).
__global__ void scale_from_largest_kernel(Fp8Scale* scale) {
  const float largest = scale->dequantize;
  scale->quantize = largest == 0.0f ? 1.0f : fminf(kE4m3Max / largest, FLT_MAX);
  scale->dequantize = 1.0f / scale->quantize;
}

// Four consecutive elements of a row per thread, packed into one 32-bit store where dst
// allows it.
__global__ void quantize_kernel(Matrix src, const Fp8Scale* scale, MatrixFp8 dst) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (row >= src.height || col >= src.width) return;
  const float s = scale->quantize;
  unsigned char* out =
      reinterpret_cast<unsigned char*>(dst.data) + static_cast<std::size_t>(row) * dst.stride + col;
  if (col + 3 < src.width && allows_words(dst)) {
    std::uint32_t word = 0;
    for (int i = 0; i < 4; ++i)
      word |= std::uint32_t{to_e4m3(src.get(row, col + i) * s)} << (8 * i);
    *reinterpret_cast<std::uint32_t*>(out) = word;
    return;
  }
  for (int i = 0; i < 4 && col + i < src.width; ++i) out[i] = to_e4m3(src.get(row, col + i) * s);
}

// A 64 x 64 tile of src (64 K-rows, 64 N-columns) per block of 32 x 8 threads. Each warp
// reads 128 bytes of a row, all 16 of a thread's loads in flight at once, and writes their
// codes down a column of the shared tile, which holds the tile transposed (tile[n][k]); rows of
// 68 bytes put the 32 bytes a warp writes in 32 different banks. Then each thread writes 4
// consecutive K of one row n to dst's row n as one word.
constexpr int kQuantizeTile = 64;
constexpr int kTileRowBytes = kQuantizeTile + 4;
constexpr int kLoadsPerThread = kQuantizeTile / 8 * 2;  // 8 rows of threads, 2 halves of 32

__global__ void quantize_transposed_kernel(Matrix src, const Fp8Scale* scale, MatrixFp8 dst) {
  __shared__ __align__(4) unsigned char tile[kQuantizeTile][kTileRowBytes];
  const int k0 = blockIdx.y * kQuantizeTile;
  const int n0 = blockIdx.x * kQuantizeTile;
  float x[kLoadsPerThread];
#pragma unroll
  for (int i = 0; i < kLoadsPerThread; ++i) {
    const int k = threadIdx.y + i / 2 * 8;
    const int n = threadIdx.x + i % 2 * 32;
    const bool inside = k0 + k < src.height && n0 + n < src.width;
    x[i] = inside ? src.get(k0 + k, n0 + n) : 0.0f;
  }
  const float s = scale->quantize;
#pragma unroll
  for (int i = 0; i < kLoadsPerThread; ++i) {
    tile[threadIdx.x + i % 2 * 32][threadIdx.y + i / 2 * 8] = to_e4m3(x[i] * s);
  }
  __syncthreads();
  const int thread = threadIdx.y * 32 + threadIdx.x;
  const int word = thread % 16;  // bytes 4 * word .. + 3 of a 64-byte row
  const int col = k0 + word * 4;
  unsigned char* out_base = reinterpret_cast<unsigned char*>(dst.data);
#pragma unroll
  for (int n = thread / 16; n < kQuantizeTile; n += 256 / 16) {
    const int row = n0 + n;
    if (row >= dst.height || col >= dst.width) continue;
    unsigned char* out = out_base + static_cast<std::size_t>(row) * dst.stride + col;
    if (col + 3 < dst.width && allows_words(dst)) {
      *reinterpret_cast<std::uint32_t*>(out) =
          *reinterpret_cast<const std::uint32_t*>(&tile[n][word * 4]);
    } else {
      for (int i = 0; i < 4 && col + i < dst.width; ++i) out[i] = tile[n][word * 4 + i];
    }
  }
}

// Both views keep check_view's rule (a destination's stride below its width would write rows
// over each other), and dst is dst_height x dst_width.
void check_views(const char* name, Matrix src, MatrixFp8 dst, int dst_height, int dst_width) {
  check_view(src);
  check_view(Matrix{dst.width, dst.height, dst.stride, nullptr});  // the shape only
  if (dst.height != dst_height || dst.width != dst_width) {
    throw std::invalid_argument(std::string(name) + ": the destination is " +
                                std::to_string(dst.height) + "x" + std::to_string(dst.width) +
                                ", not " + std::to_string(dst_height) + "x" +
                                std::to_string(dst_width));
  }
}

}  // namespace

void e4m3_scale_on_device(Matrix src, Fp8Scale* scale) {
  check_view(src);
  // The maximum is gathered in `dequantize` (0 bits: 0.0f) until the division replaces it.
  CUDA_CHECK(cudaMemsetAsync(scale, 0, sizeof *scale));
  if (!src.empty()) {
    const dim3 block(32, 8);
    // Down y, each block kRowsPerThread x 8 rows at a time, at most 256 blocks (then walking on).
    const dim3 grid((src.width + 31) / 32,
                    std::min((src.height + 8 * kRowsPerThread - 1) / (8 * kRowsPerThread), 256));
    largest_magnitude_kernel<<<grid, block>>>(src, reinterpret_cast<unsigned*>(&scale->dequantize));
    CUDA_CHECK_LAUNCH();
  }
  scale_from_largest_kernel<<<1, 1>>>(scale);
  CUDA_CHECK_LAUNCH();
}

void quantize_e4m3(Matrix src, const Fp8Scale* scale, MatrixFp8 dst) {
  check_views("quantize_e4m3", src, dst, src.height, src.width);
  if (src.empty()) return;
  const dim3 block(32, 8);
  const dim3 grid = grid_covering((src.width + 3) / 4, src.height, block.x, block.y);
  quantize_kernel<<<grid, block>>>(src, scale, dst);
  CUDA_CHECK_LAUNCH();
}

void quantize_e4m3_transposed(Matrix src, const Fp8Scale* scale, MatrixFp8 dst) {
  check_views("quantize_e4m3_transposed", src, dst, src.width, src.height);
  if (src.empty()) return;
  const dim3 block(32, 8);
  const dim3 grid = grid_covering(src.width, src.height, kQuantizeTile, kQuantizeTile);
  quantize_transposed_kernel<<<grid, block>>>(src, scale, dst);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder
