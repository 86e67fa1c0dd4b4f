// The ceiling of the GPU matrix-product stages: cuBLAS SGEMM in pure FP32, in the same run.
#pragma once

#include <memory>

#include "common/matrix.hpp"

struct cublasContext;

namespace ladder {

class CublasGemm {
 public:
  CublasGemm();
  CublasGemm(const CublasGemm&) = delete;
  CublasGemm& operator=(const CublasGemm&) = delete;

  // c = a * b on device views, row-major like every other stage. Compute type
  // CUBLAS_COMPUTE_32F with the default math mode: FP32 FMA units, never TF32.
  void operator()(Matrix a, Matrix b, Matrix c);

 private:
  struct Destroy {
    void operator()(cublasContext* handle) const;
  };
  std::unique_ptr<cublasContext, Destroy> handle_;
};

}  // namespace ladder
