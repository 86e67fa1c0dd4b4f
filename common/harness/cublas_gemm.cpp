#include "common/harness/cublas_gemm.hpp"

#include <cublas_v2.h>

#include <string>

#include "common/errors.hpp"

namespace ladder {
namespace {

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw CudaError(std::string(call) + " failed: " + cublasGetStatusString(status));
  }
}

}  // namespace

void CublasGemm::Destroy::operator()(cublasContext* handle) const { cublasDestroy(handle); }

CublasGemm::CublasGemm() {
  cublasContext* handle = nullptr;
  check(cublasCreate(&handle), "cublasCreate");
  // Owned from here on, so the handle is destroyed if the next call throws: a constructor
  // that throws runs no destructor of its own, only those of its finished members.
  handle_.reset(handle);
  // Default math: no tensor-core shortcuts for FP32 (TF32 would need CUBLAS_TF32_TENSOR_OP_MATH).
  check(cublasSetMathMode(handle_.get(), CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
}

void CublasGemm::operator()(Matrix a, Matrix b, Matrix c) {
  // cuBLAS is column-major. A row-major matrix is the column-major view of its transpose,
  // so ask for C^T = B^T * A^T: the same memory, no copies.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  check(cublasGemmEx(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, c.width, c.height, a.width, &alpha,
                     b.data, CUDA_R_32F, b.stride, a.data, CUDA_R_32F, a.stride, &beta, c.data,
                     CUDA_R_32F, c.stride, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

}  // namespace ladder
