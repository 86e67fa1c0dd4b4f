// Stage 01: the matrix product as the definition reads, one dot product per element of C.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// c = a * b with the i-j-k loop order: c is a.height x b.width, a.width == b.height.
void gemm_cpu_naive(Matrix a, Matrix b, Matrix c);

// An experiment, not a stage: how much of gemm_cpu_naive's time is B's strided column walk?
// c = a * b, given bt = B^T instead of b (bt is b.width x b.height, bt(j, k) == b(k, j)).
// The same i-j-k loop and the same serial sum, k = 0, 1, 2, ... into one float, so the
// same additions in the same order; only B's column j is now row j of bt, unit stride.
void gemm_cpu_naive_pretransposed(Matrix a, Matrix bt, Matrix c);

// bt (b.width x b.height) = the transpose of b. For gemm_cpu_naive_pretransposed.
void transpose_cpu(Matrix b, Matrix bt);

}  // namespace ladder
