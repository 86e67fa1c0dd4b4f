#include "common/matrix_bf16.hpp"

#include "common/aligned_access.hpp"

namespace ladder {

// The rule and its message are the float operands' (common/matrix.cpp): only the shapes
// matter, so the BF16 views are checked as float views of the same shapes.
void check_gemm_shapes(const MatrixBf16& a, const MatrixBf16& b, const Matrix& c) {
  check_gemm_shapes(Matrix{a.width, a.height, a.stride, nullptr},
                    Matrix{b.width, b.height, b.stride, nullptr}, c);
}

OperandPath sixteen_byte_path(std::initializer_list<MatrixBf16> operands) {
  for (const MatrixBf16& m : operands) {
    if (!allows_16_bytes(m)) return OperandPath::element;
  }
  return OperandPath::sixteen_byte;
}

}  // namespace ladder
