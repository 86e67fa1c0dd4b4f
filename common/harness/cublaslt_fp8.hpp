// Stage 22's ceiling: cuBLASLt's FP8 matrix product, E4M3 A and B^T (both K-major, the only
// layout cuBLASLt takes for FP8: "TN"), FP32 compute and C, the per-tensor factors read from
// device memory as the stage's kernel reads them.
#pragma once

#include <memory>

#include "common/device_matrix_fp8.hpp"
#include "common/matrix.hpp"

struct cublasLtContext;

namespace ladder {

class CublasLtFp8 {
 public:
  CublasLtFp8();  // a handle and a 32 MiB workspace
  ~CublasLtFp8();
  CublasLtFp8(const CublasLtFp8&) = delete;
  CublasLtFp8& operator=(const CublasLtFp8&) = delete;

  // c = (a / a's scale)(b_t / b_t's scale)^T on device views: a m x k, b_t n x k (else
  // std::invalid_argument), rows of whole 16 bytes (cuBLASLt's FP8 requirement; CudaError
  // otherwise). fast_accumulation = false is cuBLASLt's default: its kernels promote partial
  // sums to FP32 as they go; true lets them keep the sums in the tensor cores longer
  // (CUBLASLT_MATMUL_DESC_FAST_ACCUM; how long is not documented). The algorithm cuBLASLt's
  // heuristic picks is kept for the next call with the same shape, strides, pointer
  // alignments and mode, so a timed call does no host work but the launch.
  void operator()(ScaledFp8 a, ScaledFp8 b_t, Matrix c, bool fast_accumulation = false);
  // Whether cuBLASLt has an FP8 algorithm for this product: it refuses some shapes and strides
  // (on the H100 with CUDA 13.0, 4095^3 and 65 x 72 x 1064 among them; operator()
  // throws CudaError there).
  bool supports(ScaledFp8 a, ScaledFp8 b_t, Matrix c, bool fast_accumulation = false);

 private:
  bool prepare(ScaledFp8 a, ScaledFp8 b_t, Matrix c, bool fast_accumulation);
  struct Plan;
  struct Destroy {
    void operator()(cublasLtContext* handle) const;
  };
  std::unique_ptr<cublasLtContext, Destroy> handle_;
  void* workspace_ = nullptr;
  std::unique_ptr<Plan> plan_;
};

}  // namespace ladder
