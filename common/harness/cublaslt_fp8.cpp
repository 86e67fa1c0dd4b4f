#include "common/harness/cublaslt_fp8.hpp"

#include <cublasLt.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/cuda_check.hpp"
#include "common/device_memory.hpp"
#include "common/errors.hpp"
#include "common/host_matrix.hpp"
#include "common/host_matrix_fp8.hpp"

namespace ladder {
namespace {

constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;

// cuBLASLt's block of the block-scaled modes: 128 elements of K, and 128 rows of B^T.
constexpr int kBlock = 128;

int blocks(int extent) { return (extent + kBlock - 1) / kBlock; }

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw CudaError(std::string(call) + " failed: " + cublasGetStatusString(status));
  }
}

// Sets one attribute of a matmul descriptor to value; `name` names it in the error.
template <class T>
void set_attribute(cublasLtMatmulDesc_t op, cublasLtMatmulDescAttributes_t attribute,
                   const T& value, const char* name) {
  check(cublasLtMatmulDescSetAttribute(op, attribute, &value, sizeof value),
        (std::string("cublasLtMatmulDescSetAttribute(") + name + ")").c_str());
}

// A cuBLAS version number (CUBLAS_VERSION, cublasLtGetVersion: 130100) as 13.1.0.
std::string version_text(std::size_t version) {
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

// The dequantisation factors (one, or one per block) as cuBLASLt's scale pointers: its A is
// our B^T, its B our A.
void set_factors(cublasLtMatmulDesc_t op, const float* a_factors, const float* b_t_factors) {
  set_attribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, b_t_factors, "A_SCALE_POINTER");
  set_attribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, a_factors, "B_SCALE_POINTER");
}

// One factor per 128 x 128 block of cuBLASLt's A (our B^T) and per 128 elements of K of its B
// (our A), in the layouts CublasLtBlockFactors makes. Of the documented pairs on Hopper
// (VEC128/VEC128, VEC128/BLK128x128, BLK128x128/VEC128; not BLK128x128/BLK128x128) this is
// the one that matches the stage's blocks. Only FP16, BF16 and FP32 D go with these modes (no
// FP8 D); ours is FP32.
void set_block_scale_modes(cublasLtMatmulDesc_t op) {
#if CUBLAS_VERSION >= 120900
  const std::int32_t b_t_mode = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
  const std::int32_t a_mode = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;
  set_attribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, b_t_mode, "A_SCALE_MODE");
  set_attribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, a_mode, "B_SCALE_MODE");
#else
  // block_scaled_refusal turns every block-scaled call away before it gets here.
  (void)op;
  throw CudaError("cuBLAS " + version_text(CUBLAS_VERSION) + " has no block scaling modes");
#endif
}

// The largest power of two up to 256 that divides the address.
std::uint32_t alignment(const void* pointer) {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  std::uint32_t bytes = 256;
  while (bytes > 1 && address % bytes != 0) bytes /= 2;
  return bytes;
}

// A m x k, B^T n x k, C m x n, else std::invalid_argument.
void check_shapes(MatrixFp8 a, MatrixFp8 b_t, Matrix c) {
  const int m = c.height, n = c.width, k = a.width;
  if (a.height != m || b_t.height != n || b_t.width != k) {
    throw std::invalid_argument("CublasLtFp8: A (" + std::to_string(a.height) + "x" +
                                std::to_string(k) + "), B^T (" + std::to_string(b_t.height) +
                                "x" + std::to_string(b_t.width) + ") and C (" +
                                std::to_string(m) + "x" + std::to_string(n) +
                                ") must be m x k, n x k and m x n");
  }
}

// The factors must have been made for these operands' blocks, else std::invalid_argument.
void check_block_factors(MatrixFp8 a, MatrixFp8 b_t, const CublasLtBlockFactors& factors) {
  const int m = a.height, n = b_t.height, k = a.width;
  const Matrix af = factors.a(), bf = factors.b_t();
  if (af.height != blocks(k) || af.width != m || bf.height != blocks(n) ||
      bf.width != blocks(k)) {
    throw std::invalid_argument(
        "CublasLtFp8: the block factors (A's " + std::to_string(af.height) + "x" +
        std::to_string(af.width) + ", B^T's " + std::to_string(bf.height) + "x" +
        std::to_string(bf.width) + ") must be ceil(k / 128) x m and ceil(n / 128) x " +
        "ceil(k / 128) for m = " + std::to_string(m) + ", n = " + std::to_string(n) +
        ", k = " + std::to_string(k));
  }
}

}  // namespace

CublasLtBlockFactors::CublasLtBlockFactors(Matrix a_dequantize, Matrix b_t_dequantize)
    : a_(a_dequantize.width, a_dequantize.height),
      b_t_(b_t_dequantize.height, b_t_dequantize.width, (b_t_dequantize.width + 3) / 4 * 4) {
  // A's: transposed on the host (the factors are a few per 128 elements: a few MB at most).
  HostMatrix a_stage(a_dequantize.height, a_dequantize.width);
  copy_2d(a_stage.view(), a_dequantize, cudaMemcpyDeviceToHost);
  HostMatrix a_transposed(a_dequantize.width, a_dequantize.height);
  for (int row = 0; row < a_dequantize.height; ++row) {
    for (int block = 0; block < a_dequantize.width; ++block) {
      a_transposed.set(block, row, a_stage.get(row, block));
    }
  }
  a_.upload(a_transposed.view());
  // B^T's: the same factors in rows of a multiple of 4, the padding 0 (HostMatrix starts at 0)
  // rather than the owner's NaN poison, should cuBLASLt load whole 16-byte groups.
  const Matrix padded = b_t_.view();
  HostMatrix b_t_padded(padded.height, padded.width, padded.stride);
  copy_2d(b_t_padded.view(), b_t_dequantize, cudaMemcpyDeviceToHost);
  copy_2d(whole_rows(padded), whole_rows(b_t_padded.view()), cudaMemcpyHostToDevice);
}

// One call: the operands, and their factors as device pointers (one factor each, or
// CublasLtBlockFactors' tensors).
struct CublasLtFp8::Call {
  MatrixFp8 a;
  MatrixFp8 b_t;
  Matrix c;
  const float* a_factors = nullptr;
  const float* b_t_factors = nullptr;
  bool fast_accumulation = false;
  bool block_scaled = false;
};

// The descriptors and algorithm of one shape, strides and accumulation and scaling mode.
struct CublasLtFp8::Plan {
  int m = 0, n = 0, k = 0, a_stride = 0, b_stride = 0, c_stride = 0;
  std::uint32_t a_alignment = 0, b_alignment = 0, c_alignment = 0;  // bytes, of each pointer
  bool fast = false;
  bool block_scaled = false;
  bool found = false;  // whether cuBLASLt has an algorithm for it
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, c_layout = nullptr;
  cublasLtMatmulAlgo_t algo{};

  bool fits(const Plan& other) const {
    return m == other.m && n == other.n && k == other.k && a_stride == other.a_stride &&
           b_stride == other.b_stride && c_stride == other.c_stride &&
           a_alignment == other.a_alignment && b_alignment == other.b_alignment &&
           c_alignment == other.c_alignment && fast == other.fast &&
           block_scaled == other.block_scaled;
  }
  ~Plan() {
    if (op) cublasLtMatmulDescDestroy(op);
    if (a_layout) cublasLtMatrixLayoutDestroy(a_layout);
    if (b_layout) cublasLtMatrixLayoutDestroy(b_layout);
    if (c_layout) cublasLtMatrixLayoutDestroy(c_layout);
  }
};

void CublasLtFp8::Destroy::operator()(cublasLtContext* handle) const { cublasLtDestroy(handle); }

CublasLtFp8::CublasLtFp8() {
  cublasLtContext* handle = nullptr;
  check(cublasLtCreate(&handle), "cublasLtCreate");
  handle_.reset(handle);
  CUDA_CHECK(cudaMalloc(&workspace_, kWorkspaceBytes));
}

CublasLtFp8::~CublasLtFp8() { cudaFree(workspace_); }

// The plan for this call: the last one if it fits, else a new one with the algorithm
// cuBLASLt's heuristic picks (none: the plan has found == false). The operands' factor
// pointers are set before the heuristic runs, so that it picks among the algorithms that
// apply them.
bool CublasLtFp8::prepare(const Call& call) {
  check_shapes(call.a, call.b_t, call.c);
  const int m = call.c.height, n = call.c.width, k = call.a.width;
  Plan want;
  want.a_alignment = alignment(call.b_t.data);  // cuBLASLt's A is our B^T
  want.b_alignment = alignment(call.a.data);
  want.c_alignment = alignment(call.c.data);
  want.m = m;
  want.n = n;
  want.k = k;
  want.a_stride = call.a.stride;
  want.b_stride = call.b_t.stride;
  want.c_stride = call.c.stride;
  want.fast = call.fast_accumulation;
  want.block_scaled = call.block_scaled;
  if (!plan_ || !plan_->fits(want)) {
    plan_.reset();
    auto plan = std::make_unique<Plan>(want);
    // Where the documentation rules the call out, there is nothing to ask the heuristic.
    if (call.block_scaled && !block_scaled_refusal(m, n).empty()) {
      plan_ = std::move(plan);
      return false;
    }
    // cuBLASLt is column-major: our row-major C (m x n) is its C^T (n x m) = B^T A^T. b_t's
    // rows, read column-major, are B (k x n), taken transposed ("T"); a's rows are A^T
    // (k x m), taken as they are ("N"): both K-major, the one layout FP8 allows. Compute and
    // scale type FP32, as FP8 requires.
    check(cublasLtMatmulDescCreate(&plan->op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
          "cublasLtMatmulDescCreate");
    const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
    set_attribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSA, transpose, "TRANSA");
    set_attribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSB, keep, "TRANSB");
    // Set even to its default, 0. The block-scaled calls pass 0: each block's factors apply to
    // that block's sums alone, which fast accumulation (sums kept in the tensor cores across
    // blocks) would not allow.
    const std::int8_t fast = call.fast_accumulation ? 1 : 0;
    set_attribute(plan->op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, fast, "FAST_ACCUM");
    if (call.block_scaled) set_block_scale_modes(plan->op);
    set_factors(plan->op, call.a_factors, call.b_t_factors);
    check(cublasLtMatrixLayoutCreate(&plan->a_layout, CUDA_R_8F_E4M3, k, n, call.b_t.stride),
          "cublasLtMatrixLayoutCreate(B^T)");
    check(cublasLtMatrixLayoutCreate(&plan->b_layout, CUDA_R_8F_E4M3, k, m, call.a.stride),
          "cublasLtMatrixLayoutCreate(A)");
    check(cublasLtMatrixLayoutCreate(&plan->c_layout, CUDA_R_32F, n, m, call.c.stride),
          "cublasLtMatrixLayoutCreate(C)");
    cublasLtMatmulPreference_t preference = nullptr;
    check(cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
    const std::size_t workspace = kWorkspaceBytes;
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    // The pointers' own alignment: cuBLASLt otherwise assumes 256 bytes and may pick an
    // algorithm that fails on a sub-view.
    cublasStatus_t status = cublasLtMatmulPreferenceSetAttribute(
        preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace);
    const std::pair<cublasLtMatmulPreferenceAttributes_t, std::uint32_t> alignments[] = {
        {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, plan->a_alignment},
        {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, plan->b_alignment},
        {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, plan->c_alignment},
        {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, plan->c_alignment}};
    for (const auto& [attribute, bytes] : alignments) {
      if (status == CUBLAS_STATUS_SUCCESS) {
        status = cublasLtMatmulPreferenceSetAttribute(preference, attribute, &bytes, sizeof bytes);
      }
    }
    if (status == CUBLAS_STATUS_SUCCESS) {
      status = cublasLtMatmulAlgoGetHeuristic(handle_.get(), plan->op, plan->a_layout,
                                              plan->b_layout, plan->c_layout, plan->c_layout,
                                              preference, 1, &result, &found);
    }
    cublasLtMatmulPreferenceDestroy(preference);
    if (status != CUBLAS_STATUS_NOT_SUPPORTED) check(status, "cublasLtMatmulAlgoGetHeuristic");
    plan->found = status == CUBLAS_STATUS_SUCCESS && found > 0;
    plan->algo = result.algo;
    plan_ = std::move(plan);
  }
  return plan_->found;
}

// The call on its plan (prepare's, which found an algorithm).
void CublasLtFp8::launch(const Call& call) {
  // The operands may change between calls of one plan.
  set_factors(plan_->op, call.a_factors, call.b_t_factors);
  const float alpha = 1.0f, beta = 0.0f;
  check(cublasLtMatmul(handle_.get(), plan_->op, &alpha, call.b_t.data, plan_->a_layout,
                       call.a.data, plan_->b_layout, &beta, call.c.data, plan_->c_layout,
                       call.c.data, plan_->c_layout, &plan_->algo, workspace_, kWorkspaceBytes,
                       nullptr),
        "cublasLtMatmul");
}

bool CublasLtFp8::supports(ScaledFp8 a, ScaledFp8 b_t, Matrix c, bool fast_accumulation) {
  return prepare({a.values, b_t.values, c, &a.scale->dequantize, &b_t.scale->dequantize,
                  fast_accumulation, false});
}

void CublasLtFp8::operator()(ScaledFp8 a, ScaledFp8 b_t, Matrix c, bool fast_accumulation) {
  const Call call{a.values, b_t.values, c, &a.scale->dequantize, &b_t.scale->dequantize,
                  fast_accumulation, false};
  if (!prepare(call)) {
    throw CudaError("cuBLASLt has no FP8 algorithm for this product (supports() says so)");
  }
  launch(call);
}

bool CublasLtFp8::supports_block_scaled(MatrixFp8 a, MatrixFp8 b_t,
                                        const CublasLtBlockFactors& factors, Matrix c) {
  check_shapes(a, b_t, c);
  check_block_factors(a, b_t, factors);
  return prepare({a, b_t, c, factors.a().data, factors.b_t().data, false, true});
}

void CublasLtFp8::block_scaled(MatrixFp8 a, MatrixFp8 b_t, const CublasLtBlockFactors& factors,
                               Matrix c) {
  if (!supports_block_scaled(a, b_t, factors, c)) {
    throw CudaError("cuBLASLt has no block-scaled FP8 algorithm for this product "
                    "(supports_block_scaled() says so)");
  }
  launch({a, b_t, c, factors.a().data, factors.b_t().data, false, true});
}

// The rules of the cuBLAS documentation (cuBLASLt: "Scaling Mode Support Overview"; "128-element
// 1D and 128x128 2D Block Scaling for FP8 Data Types", "Scaling factors layouts").
std::string CublasLtFp8::block_scaled_refusal(int m, int n) {
  // Its M and N are our n and m.
  if (m % 4 != 0 || n % 4 != 0) {
    return "its 128-element and 128x128 block scaling need M and N multiples of 4, and this "
           "product has m = " + std::to_string(m) + ", n = " + std::to_string(n);
  }
#if CUBLAS_VERSION < 120900
  return "built with cuBLAS " + version_text(CUBLAS_VERSION) +
         "; its block scaling modes came with cuBLAS 12.9";
#else
  const std::size_t version = cublasLtGetVersion();
  if (version < 120900) {
    return "cuBLASLt " + version_text(version) +
           " at run time; its block scaling modes came with cuBLAS 12.9";
  }
  const int major = device_attribute(cudaDevAttrComputeCapabilityMajor);
  const int minor = device_attribute(cudaDevAttrComputeCapabilityMinor);
  if (major != 9 || minor != 0) {
    return "its 128-element and 128x128 block scaling is for compute capability 9.0 only, and "
           "this GPU is sm_" + std::to_string(major) + std::to_string(minor);
  }
  return "";
#endif
}

}  // namespace ladder
