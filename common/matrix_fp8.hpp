// The 8-bit operands of the FP8 stage: the same view as MatrixBf16 (row-major, element
// (row, col) at data[row * stride + col]) over E4M3 elements: 1 sign, 4 exponent and 3 mantissa
// bits, finite values up to 448, no infinities. An FP8 matrix stands for real values only
// with its scale: the FP8 values are the real ones times `scale`, chosen per tensor from the
// largest magnitude (e4m3_scale), so that the range fits. C stays a float Matrix. Also the
// views a kernel takes: E4M3 values with their scales, per tensor or per block.
#pragma once

#include <cuda_fp8.h>

#include <cstdint>
#include <vector>

#include "common/matrix.hpp"

namespace ladder {

using fp8_e4m3 = __nv_fp8_e4m3;

struct MatrixFp8 {
  int width = 0;   // columns
  int height = 0;  // rows
  int stride = 0;  // elements from the start of one row to the next, >= width
  fp8_e4m3* data = nullptr;

  LADDER_HOST_DEVICE fp8_e4m3 get(int row, int col) const { return data[row * stride + col]; }
  LADDER_HOST_DEVICE void set(int row, int col, fp8_e4m3 value) const {
    data[row * stride + col] = value;
  }
  // No elements (see Matrix::empty).
  LADDER_HOST_DEVICE bool empty() const { return width == 0 || height == 0; }
  LADDER_HOST_DEVICE MatrixFp8 sub(int row, int col, int rows, int cols) const {
    return MatrixFp8{cols, rows, stride, data + row * stride + col};
  }
};

// An E4M3 matrix in host memory (stride = width), zeros at first: owns its elements and hands
// out MatrixFp8 views, as HostMatrix does for floats.
class HostMatrixFp8 {
 public:
  HostMatrixFp8(int height, int width);
  MatrixFp8 view() { return MatrixFp8{width_, height_, width_, elements_.data()}; }

 private:
  int width_;
  int height_;
  std::vector<fp8_e4m3> elements_;
};

// src^T, on the host.
HostMatrixFp8 transposed(const MatrixFp8& src);

// True when every row starts on a 16-byte boundary: 16 elements to a 16-byte access, the
// alignment TMA needs of a row.
inline bool allows_16_bytes(const MatrixFp8& m) {
  return reinterpret_cast<std::uintptr_t>(m.data) % 16 == 0 && m.stride % 16 == 0;
}

// One tensor's scale as the device keeps it: `quantize` multiplies the real values into E4M3's
// range (e4m3_scale of their largest magnitude), `dequantize` = 1 / quantize multiplies the
// products back (what stage 22's kernel and cuBLASLt's scale pointers read).
// `dequantize` comes first: cuBLASLt refuses scale pointers off a 16-byte boundary, and
// cudaMalloc returns 256-byte-aligned memory.
struct Fp8Scale {
  float dequantize = 1.0f;
  float quantize = 1.0f;
};

// An E4M3 operand on the device: the values, times the scale, rounded (device views).
struct ScaledFp8 {
  MatrixFp8 values;
  const Fp8Scale* scale = nullptr;
};

// An E4M3 operand with per-block scales (device views): the values, and one dequantisation
// factor (1 / scale) per block, row-major over the blocks.
struct BlockScaledFp8 {
  MatrixFp8 values;
  Matrix dequantize;
};

// Where a GEMM from FP32 quantises its operands before the product (device views): A's E4M3
// values (m x k), B's transposed (n x k), and their scales.
struct Fp8Workspace {
  MatrixFp8 a;
  MatrixFp8 b_t;
  Fp8Scale* a_scale;
  Fp8Scale* b_scale;
};

// The largest finite E4M3 value. Conversions saturate to it: a real value beyond it, infinity
// included, becomes +-448 (NaN stays NaN).
inline constexpr float kE4m3Max = 448.0f;

// The largest |x| of a host view; std::invalid_argument if an element is NaN or infinite (no
// scale could bring it into range).
float largest_magnitude(const Matrix& m);

// The per-tensor scale for values whose largest magnitude is `largest`: the factor that maps
// it onto kE4m3Max (1 for an all-zero tensor; at most FLT_MAX), so that the largest values
// keep E4M3's full precision and none saturates. std::invalid_argument for a negative or
// non-finite `largest`.
float e4m3_scale(float largest);

// dst = src * scale rounded to the nearest E4M3 value (ties to even), saturating at +-448: on
// the host, for host views of the same shape (std::invalid_argument otherwise). The reference
// the device's quantisation is checked against.
void quantize_e4m3(const Matrix& src, float scale, const MatrixFp8& dst);

// Per-block scales (the per-block variant of the FP8 stage; DeepSeek-V3 trains with blocks of
// 1 x 128 for A and 128 x 128 for B): one scale per block of block_rows x block_cols elements,
// the blocks at the right and bottom edges cut short, each mapping its block's largest
// magnitude onto kE4m3Max as e4m3_scale does. An outlier then costs precision only in its
// own block.
struct BlockScales {
  int block_rows = 0;
  int block_cols = 0;
  int blocks_across = 0;  // blocks in a row of the matrix
  std::vector<float> scales;  // row-major over the blocks

  // The scale of the block holding element (row, col).
  float at(int row, int col) const {
    return scales[static_cast<std::size_t>(row / block_rows) * blocks_across + col / block_cols];
  }
};

// The scales of src's blocks; std::invalid_argument for a block size below 1 or a non-finite
// element.
BlockScales e4m3_block_scales(const Matrix& src, int block_rows, int block_cols);

// dst = src times its block's scale, rounded and saturated as quantize_e4m3.
void quantize_e4m3(const Matrix& src, const BlockScales& scales, const MatrixFp8& dst);

// C = (A / a_scale)(B / b_scale), m x n row-major, in double: each product of two E4M3 values
// is exact (and exact in FP32 too: 4 significant bits times 4 make at most 8), and the sum and
// the scales are applied in double. Host views; std::invalid_argument unless a.width ==
// b.height.
std::vector<double> reference_product_fp8(const MatrixFp8& a, float a_scale, const MatrixFp8& b,
                                          float b_scale);

// The same with per-block scales: each product A(m, k) B(k, n) divided by the scales of the
// blocks holding its two factors.
std::vector<double> reference_product_fp8(const MatrixFp8& a, const BlockScales& a_scales,
                                          const MatrixFp8& b, const BlockScales& b_scales);

}  // namespace ladder
