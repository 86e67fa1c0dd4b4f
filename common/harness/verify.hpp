// The double-precision references and the checks every stage runs on its output: on the
// host (verify.cpp) and, for large products, on the GPU (verify_on_device.cu).
#pragma once

#include <string>
#include <vector>

#include "common/matrix.hpp"

namespace ladder {

// C = A * B in double precision, with the magnitude sum_k |a_ik * b_kj| of every element,
// which scales the error a float result may carry. Row-major, m x n.
struct GemmReference {
  int rows = 0;
  int cols = 0;
  std::vector<double> value;
  std::vector<double> magnitude;
};
GemmReference reference_gemm(Matrix a, Matrix b);

// The worst element a check found, and whether everything passed.
struct CheckResult {
  bool ok = true;
  long long checked = 0;   // elements compared
  int row = -1;            // worst element, -1 when there is none
  int col = -1;
  double got = 0;
  double want = 0;
  double error = 0;        // |got - want|
  double bound = 0;        // the largest error allowed at that element
  std::string summary() const;
};

// Relative error allowed per unit of magnitude when K products are summed in float:
// K * 2^-24 (the classical gamma_K bound for any summation order, FMA or not) times a
// safety factor of 2. Loose enough for every correct float kernel. An element one average
// product term off (magnitude / K) exceeds it while K^2 < 2^23, that is K < 2896; at
// larger K only errors of several terms show, which is what wrong tile indices produce.
double gemm_gamma(int k);

// The same for the tensor cores (Part 4: BF16 products, FP32 accumulation): K * 2^-22,
// twice gemm_gamma(K), which itself has a factor 2 over gamma_K. Why twice: tensor cores
// need not add in IEEE round-to-nearest. The published measurements of their MMA units
// (Fasi, Higham, Mikaitis, Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ
// Computer Science, 2021) find the products exact and each block of b products added to
// the accumulator at once: the addends aligned to the largest exponent among them and
// truncated (rounded toward zero), the sum normalised once. A block of b products plus the
// accumulator can then lose up to about (b + 2) units of 2^-23 relative to its magnitude,
// and k / b blocks up to (k / b) (b + 2) 2^-23 <= 2 k 2^-23 for b >= 2. The reference is
// computed from the inputs rounded to BF16, so rounding the inputs is no part of the error.
// The paper measured the V100, T4 and A100; for Hopper the model is an assumption, and
// tests/tensor_error_study.cpp measures how close the kernels come to the bound there.
double tensor_gemm_gamma(int k);

// The same for FP8 (stage 22), where the tensor cores sum `window` products between two
// promotions of the partial sum to FP32 registers (the whole k without promotion). The model
// above, with the addends aligned to fewer bits: DeepSeek-V3's report (arXiv 2412.19437,
// section 3.3.2) finds Hopper's FP8 accumulation keeps about 14 bits. Taking 13 (units of
// 2^-13), each k32 block of products and the accumulator loses up to 34 * 2^-13 of the
// magnitude summed so far, and a window of w products up to ceil(w / 32) of those; the FP32
// sums of the promoted windows and the scale factors add at most tensor_gemm_gamma(k).
// tests/fp8_error_study.cpp measures how close the kernels come.
double fp8_gemm_gamma(int k, int window);

// |c_ij - ref_ij| <= gemm_gamma(K) * magnitude_ij for every element; NaN always fails.
CheckResult check_gemm(Matrix c, const GemmReference& ref, int k);

// out must be exactly in transposed, element by element (a transpose only moves bits).
CheckResult check_transpose(Matrix in, Matrix out);

// out must be exactly in, element by element (the copy ceilings of the transpose stages).
CheckResult check_copy(Matrix in, Matrix out);

// The same test as check_gemm (|c - a*b| <= gemm_gamma(K) * sum_k |a_ik b_kj| for every
// element), with the double-precision reference computed on the GPU: a full check that
// stays fast at 4096^3, where the host reference would take minutes. a, b, c are device
// views; a_host and b_host the same inputs on the host, used to describe the worst element.
// Part of ladder_harness_gpu: only GPU programs can call it.
CheckResult check_gemm_on_device(Matrix a, Matrix b, Matrix c, Matrix a_host, Matrix b_host);
// The same with another relative bound than gemm_gamma(K): tensor_gemm_gamma(K) for Part 4.
CheckResult check_gemm_on_device(Matrix a, Matrix b, Matrix c, Matrix a_host, Matrix b_host,
                                 double gamma);

// True when every padding element (columns width..stride-1) is still NaN: the kernel
// honoured the stride and wrote nothing past the width.
bool padding_is_poisoned(Matrix m);

}  // namespace ladder
