#include "01_cpu_naive/kernel.hpp"

namespace ladder {

void gemm_cpu_naive(Matrix a, Matrix b, Matrix c) {
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

}  // namespace ladder
