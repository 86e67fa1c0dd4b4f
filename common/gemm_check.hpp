// Checking a GPU matrix product on the GPU itself, in double precision, element by element.
#pragma once

#include "common/matrix.hpp"
#include "common/verify.hpp"

namespace ladder {

// The same test as check_gemm (|c - a*b| <= gemm_gamma(K) * sum_k |a_ik b_kj| for every
// element), with the double-precision reference computed on the GPU: a full check that
// stays fast at 4096^3, where the host reference would take minutes. a, b, c are device
// views; a_host and b_host the same inputs on the host, used to describe the worst element.
CheckResult check_gemm_on_device(Matrix a, Matrix b, Matrix c, Matrix a_host, Matrix b_host);

}  // namespace ladder
