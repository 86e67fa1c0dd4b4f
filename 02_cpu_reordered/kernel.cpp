#include "02_cpu_reordered/kernel.hpp"

namespace ladder {

void gemm_cpu_reordered(Matrix a, Matrix b, Matrix c) {
  check_gemm_shapes(a, b, c);
  for (int i = 0; i < c.height; ++i) {
    float* c_row = c.data + i * c.stride;
    for (int j = 0; j < c.width; ++j) c_row[j] = 0.0f;
    for (int k = 0; k < a.width; ++k) {
      // One element of A scales a whole row of B into a whole row of C: both rows are
      // walked with unit stride, every cache line is used in full, and the compiler
      // turns this loop into SIMD multiply-adds.
      const float a_ik = a.get(i, k);
      const float* b_row = b.data + k * b.stride;
      for (int j = 0; j < c.width; ++j) {
        c_row[j] += a_ik * b_row[j];
      }
    }
  }
}

}  // namespace ladder
