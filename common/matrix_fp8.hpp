// The 8-bit operands of the FP8 stage: the same view as MatrixBf16 (row-major, element
// (row, col) at data[row * stride + col]) over E4M3 elements: 1 sign, 4 exponent and 3 mantissa
// bits, finite values up to 448, no infinities. An FP8 matrix stands for real values only
// with its scale: the FP8 values are the real ones times `scale`, chosen per tensor from the
// largest magnitude, so that the range fits. C stays a float Matrix. Also the views a kernel
// takes: E4M3 values with their scales, per tensor or per block. The host side (owners, the
// reference quantisation and product) is host_matrix_fp8.hpp.
#pragma once

#include <cuda_fp8.h>

#include <cstdint>

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

// True when every row starts on a 16-byte boundary: 16 elements to a 16-byte access, the
// alignment TMA needs of a row.
inline bool allows_16_bytes(const MatrixFp8& m) {
  return reinterpret_cast<std::uintptr_t>(m.data) % 16 == 0 && m.stride % 16 == 0;
}

// One tensor's scale as the device keeps it: `quantize` multiplies the real values into E4M3's
// range (e4m3_scale of their largest magnitude, host_matrix_fp8.hpp), `dequantize` =
// 1 / quantize multiplies the products back (what stage 22's kernel and cuBLASLt's scale
// pointers read).
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

}  // namespace ladder
