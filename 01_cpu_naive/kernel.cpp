#include "01_cpu_naive/kernel.hpp"

namespace ladder {

void gemm_cpu_naive(Matrix a, Matrix b, Matrix c) {
  check_gemm_shapes(a, b, c);
  for (int i = 0; i < c.height; ++i) {
    for (int j = 0; j < c.width; ++j) {
      // The innermost loop walks down column j of B: consecutive k are b.stride floats
      // apart, so nearly every B load touches a different cache line.
      float sum = 0.0f;
      for (int k = 0; k < a.width; ++k) {
        sum += a.get(i, k) * b.get(k, j);
      }
      c.set(i, j, sum);
    }
  }
}

void gemm_cpu_naive_pretransposed(Matrix a, Matrix bt, Matrix c) {
  // The shape of B is that of bt, turned: its width and height swap.
  check_gemm_shapes(a, Matrix{bt.height, bt.width, bt.height, nullptr}, c);
  for (int i = 0; i < c.height; ++i) {
    for (int j = 0; j < c.width; ++j) {
      // Row i of A and row j of B^T: both unit stride. The sum is the same serial chain.
      float sum = 0.0f;
      for (int k = 0; k < a.width; ++k) {
        sum += a.get(i, k) * bt.get(j, k);
      }
      c.set(i, j, sum);
    }
  }
}

void transpose_cpu(Matrix b, Matrix bt) {
  for (int k = 0; k < b.height; ++k) {
    for (int j = 0; j < b.width; ++j) bt.set(j, k, b.get(k, j));
  }
}

}  // namespace ladder
