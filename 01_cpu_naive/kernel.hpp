// Stage 01: the matrix product as the definition reads, one dot product per element of C.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// c = a * b with the i-j-k loop order: c is a.height x b.width, a.width == b.height.
void gemm_cpu_naive(Matrix a, Matrix b, Matrix c);

}  // namespace ladder
