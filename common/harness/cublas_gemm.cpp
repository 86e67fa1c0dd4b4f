#include "common/harness/cublas_gemm.hpp"

#include <cublas_v2.h>

#include <string>

#include "common/errors.hpp"
#include "common/matrix_bf16.hpp"

namespace ladder {
namespace {

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw CudaError(std::string(call) + " failed: " + cublasGetStatusString(status));
  }
}

// c = a * b with a and b of `operands` type, c FP32, the arithmetic `compute`. cuBLAS is
// column-major. A row-major matrix is the column-major view of its transpose, so ask for
// C^T = B^T * A^T: the same memory, no copies.
void gemm_row_major(cublasHandle_t handle, cudaDataType operands, const void* a, int a_stride,
                    const void* b, int b_stride, Matrix c, int k,
                    cublasComputeType_t compute = CUBLAS_COMPUTE_32F) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, c.width, c.height, k, &alpha, b, operands,
                     b_stride, a, operands, a_stride, &beta, c.data, CUDA_R_32F, c.stride,
                     compute, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

}  // namespace

void CublasGemm::Destroy::operator()(cublasContext* handle) const { cublasDestroy(handle); }

CublasGemm::CublasGemm() {
  cublasContext* handle = nullptr;
  check(cublasCreate(&handle), "cublasCreate");
  // Owned from here on, so the handle is destroyed if the next call throws: a constructor
  // that throws runs no destructor of its own, only those of its finished members.
  handle_.reset(handle);
  // Default math: no tensor-core shortcuts for FP32 unless asked for by the compute type
  // (tf32 below), as CUBLAS_TF32_TENSOR_OP_MATH would do for every call.
  check(cublasSetMathMode(handle_.get(), CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
}

void CublasGemm::operator()(Matrix a, Matrix b, Matrix c) {
  gemm_row_major(handle_.get(), CUDA_R_32F, a.data, a.stride, b.data, b.stride, c, a.width);
}

void CublasGemm::operator()(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  gemm_row_major(handle_.get(), CUDA_R_16BF, a.data, a.stride, b.data, b.stride, c, a.width);
}

void CublasGemm::tf32(Matrix a, Matrix b, Matrix c) {
  gemm_row_major(handle_.get(), CUDA_R_32F, a.data, a.stride, b.data, b.stride, c, a.width,
                 CUBLAS_COMPUTE_32F_FAST_TF32);
}

}  // namespace ladder
