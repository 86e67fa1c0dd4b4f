// The 16-bit operands of Part 4: the same view as Matrix over bfloat16 elements, a separate
// struct rather than a template so that Parts 1-3 keep their plain float Matrix. C stays a float
// Matrix: the tensor cores multiply BF16 and accumulate in FP32.
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "common/matrix.hpp"

namespace ladder {

using bf16 = __nv_bfloat16;

struct MatrixBf16 {  // as Matrix
  int width = 0;
  int height = 0;
  int stride = 0;
  bf16* data = nullptr;

  LADDER_HOST_DEVICE bf16 get(int row, int col) const { return data[row * stride + col]; }
  LADDER_HOST_DEVICE void set(int row, int col, bf16 value) const {
    data[row * stride + col] = value;
  }
  LADDER_HOST_DEVICE bool empty() const { return width == 0 || height == 0; }
  LADDER_HOST_DEVICE MatrixBf16 sub(int row, int col, int rows, int cols) const {
    return MatrixBf16{cols, rows, stride, data + row * stride + col};
  }
};

// True when every row starts on a 16-byte boundary, so 8 elements (row, col..col+7) with
// col % 8 == 0 move as one 16-byte access (cp.async, uint4 loads, ldmatrix rows).
inline bool allows_16_bytes(const MatrixBf16& m) {
  return reinterpret_cast<std::uintptr_t>(m.data) % 16 == 0 && m.stride % 8 == 0;
}

// Throws std::invalid_argument unless c = a * b is defined (as check_gemm_shapes).
void check_gemm_shapes(const MatrixBf16& a, const MatrixBf16& b, const Matrix& c);

}  // namespace ladder
