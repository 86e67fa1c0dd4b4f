// Stage 02: the same product with the two inner loops swapped (i-k-j).
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// c = a * b with the i-k-j loop order: c is a.height x b.width, a.width == b.height.
void gemm_cpu_reordered(Matrix a, Matrix b, Matrix c);

}  // namespace ladder
