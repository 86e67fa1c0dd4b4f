// The ceilings of the GPU matrix-product stages, in the same run: cuBLAS SGEMM in pure FP32
// (the FP32 GPU stages), cuBLAS with BF16 operands, FP32 accumulation and FP32 C (Part 4), and
// cuBLAS with FP32 operands read as TF32 by the tensor cores (stage 20).
#pragma once

#include <memory>

#include "common/matrix.hpp"
// MatrixBf16 only declared: this header reaches host-only code (cpu_gemm_bench.cpp through
// gemm_bench.hpp), which has no CUDA include path for cuda_bf16.h.
namespace ladder {
struct MatrixBf16;
}

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
  // The same with BF16 a and b (CUDA_R_16BF), CUBLAS_COMPUTE_32F: the tensor cores, each
  // product exact and summed in FP32, as the Part 4 stages compute.
  void operator()(MatrixBf16 a, MatrixBf16 b, Matrix c);
  // FP32 a, b and c with CUBLAS_COMPUTE_32F_FAST_TF32: the tensor cores, each operand read as
  // TF32 (10 mantissa bits), the products summed in FP32.
  void tf32(Matrix a, Matrix b, Matrix c);

 private:
  struct Destroy {
    void operator()(cublasContext* handle) const;
  };
  std::unique_ptr<cublasContext, Destroy> handle_;
};

}  // namespace ladder
