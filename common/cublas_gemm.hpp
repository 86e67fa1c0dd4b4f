// The FP32 ceiling for the matrix-product stages: cuBLAS SGEMM in pure FP32.
#pragma once

#include "common/matrix.hpp"

struct cublasContext;

namespace ladder {

class CublasGemm {
 public:
  CublasGemm();
  ~CublasGemm();
  CublasGemm(const CublasGemm&) = delete;
  CublasGemm& operator=(const CublasGemm&) = delete;

  // c = a * b on device views, row-major like every other stage. Compute type
  // CUBLAS_COMPUTE_32F with the default math mode: FP32 FMA units, never TF32.
  void operator()(Matrix a, Matrix b, Matrix c);

 private:
  cublasContext* handle_ = nullptr;
};

}  // namespace ladder
