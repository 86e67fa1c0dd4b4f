// Stage 22's ceilings: cuBLASLt's FP8 matrix product, E4M3 A and B^T (both K-major, the only
// layout cuBLASLt takes for FP8: "TN"), FP32 compute and C. The dequantisation factors come
// from device memory: one per tensor, read as the stage's kernel reads them, or one per block
// (1 x 128 of A, 128 x 128 of B^T: cuBLASLt's own block scaling, Hopper only, cuBLAS 12.9 and
// newer), copied once into the layouts cuBLASLt reads (CublasLtBlockFactors).
#pragma once

#include <memory>
#include <string>

#include "common/device_matrix.hpp"
#include "common/device_matrix_fp8.hpp"
#include "common/matrix.hpp"

struct cublasLtContext;

namespace ladder {

// The per-block dequantisation factors laid out as cuBLASLt reads them, copied once, outside
// any timing, from the stage's layout: launch_gemm_fp8_block_scaled's A factors
// (m x ceil(k / 128)) and B^T factors (ceil(n / 128) x ceil(k / 128)), row-major device views,
// any strides. The values stay the stage's, 1 / scale: cuBLASLt multiplies by its scale factors
// ("all the scaling factors are applied multiplicatively"), so they are the dequantisation
// factors, not their reciprocals.
//
// Why copies: cuBLASLt takes no strides for the factors, and wants A's the other way round.
// The cuBLAS documentation (https://docs.nvidia.com/cuda/cublas/ section "128-element 1D and
// 128x128 2D Block Scaling For FP8 Data Types", "Scaling factors layouts") states the layouts in
// cuBLASLt's column-major terms, where our B^T is its A (its M = our n) and our A is its B (its
// N = our m), L = ceil(K / 128):
//  - its B in CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F: "N-major ... with shape N x L", the m
//    factors of one block of K adjacent. So a() is L x m, row-major, stride m: the stage's A
//    factors transposed (on the host: they are a few per 128 elements).
//  - its A in CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F: "K-major", shape L4 x ceil(M / 128)
//    with L4 = L rounded up to a multiple of 4, the stride between its columns. So b_t() is the
//    stage's ceil(n / 128) x L with rows of L4 (the padding 0).
// Both start 16-byte aligned, as the documentation requires (cudaMalloc gives 256); its other
// rule, M and N multiples of 4, is CublasLtFp8::block_scaled_refusal's.
class CublasLtBlockFactors {
 public:
  CublasLtBlockFactors(Matrix a_dequantize, Matrix b_t_dequantize);
  Matrix a() const { return a_.view(); }
  Matrix b_t() const { return b_t_.view(); }

 private:
  DeviceMatrix a_;
  DeviceMatrix b_t_;
};

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

  // The same product with one factor per block: c = sum over blocks of K of (a's block times
  // its factor)(b_t's block times its factor)^T, a m x k and b_t n x k E4M3 device views, the
  // factors made from the stage's (else std::invalid_argument). cuBLASLt applies each block's
  // factors as it promotes the block's partial sums to FP32 (no fast accumulation). Planned
  // and kept as operator(); CudaError where supports_block_scaled is false.
  void block_scaled(MatrixFp8 a, MatrixFp8 b_t, const CublasLtBlockFactors& factors, Matrix c);
  // False where block_scaled_refusal names a reason, or where cuBLASLt's heuristic has no
  // algorithm for the call.
  bool supports_block_scaled(MatrixFp8 a, MatrixFp8 b_t, const CublasLtBlockFactors& factors,
                             Matrix c);
  // Why cuBLASLt's documentation rules out its block-scaled FP8 for an m x n product (any K)
  // here: m or n not a multiple of 4, a cuBLAS older than 12.9 at build or run time, a GPU
  // other than compute capability 9.0; "" where it does not.
  static std::string block_scaled_refusal(int m, int n);

 private:
  struct Call;
  bool prepare(const Call& call);
  void launch(const Call& call);
  struct Plan;
  struct Destroy {
    void operator()(cublasLtContext* handle) const;
  };
  std::unique_ptr<cublasLtContext, Destroy> handle_;
  void* workspace_ = nullptr;
  std::unique_ptr<Plan> plan_;
};

}  // namespace ladder
