#include "common/harness/cublaslt_fp8.hpp"

#include <cublasLt.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder {
namespace {

constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw CudaError(std::string(call) + " failed: " + cublasGetStatusString(status));
  }
}

// The operands' dequantisation factors, as cuBLASLt's scale pointers.
void set_factors(cublasLtMatmulDesc_t op, ScaledFp8 a, ScaledFp8 b_t) {
  const float* a_factor = &b_t.scale->dequantize;  // cuBLASLt's A is our B^T
  const float* b_factor = &a.scale->dequantize;
  check(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &a_factor,
                                       sizeof a_factor),
        "cublasLtMatmulDescSetAttribute(A_SCALE_POINTER)");
  check(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &b_factor,
                                       sizeof b_factor),
        "cublasLtMatmulDescSetAttribute(B_SCALE_POINTER)");
}

// The largest power of two up to 256 that divides the address.
std::uint32_t alignment(const void* pointer) {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  std::uint32_t bytes = 256;
  while (bytes > 1 && address % bytes != 0) bytes /= 2;
  return bytes;
}

}  // namespace

// The descriptors and algorithm of one shape, strides and accumulation mode.
struct CublasLtFp8::Plan {
  int m = 0, n = 0, k = 0, a_stride = 0, b_stride = 0, c_stride = 0;
  std::uint32_t a_alignment = 0, b_alignment = 0, c_alignment = 0;  // bytes, of each pointer
  bool fast = false;
  bool found = false;  // whether cuBLASLt has an algorithm for it
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, c_layout = nullptr;
  cublasLtMatmulAlgo_t algo{};

  bool fits(const Plan& other) const {
    return m == other.m && n == other.n && k == other.k && a_stride == other.a_stride &&
           b_stride == other.b_stride && c_stride == other.c_stride &&
           a_alignment == other.a_alignment && b_alignment == other.b_alignment &&
           c_alignment == other.c_alignment && fast == other.fast;
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
bool CublasLtFp8::prepare(ScaledFp8 a, ScaledFp8 b_t, Matrix c, bool fast_accumulation) {
  const int m = c.height, n = c.width, k = a.values.width;
  if (a.values.height != m || b_t.values.height != n || b_t.values.width != k) {
    throw std::invalid_argument("CublasLtFp8: A (" + std::to_string(a.values.height) + "x" +
                                std::to_string(k) + "), B^T (" +
                                std::to_string(b_t.values.height) + "x" +
                                std::to_string(b_t.values.width) + ") and C (" +
                                std::to_string(m) + "x" + std::to_string(n) +
                                ") must be m x k, n x k and m x n");
  }
  Plan want;
  want.a_alignment = alignment(b_t.values.data);  // cuBLASLt's A is our B^T
  want.b_alignment = alignment(a.values.data);
  want.c_alignment = alignment(c.data);
  want.m = m;
  want.n = n;
  want.k = k;
  want.a_stride = a.values.stride;
  want.b_stride = b_t.values.stride;
  want.c_stride = c.stride;
  want.fast = fast_accumulation;
  if (!plan_ || !plan_->fits(want)) {
    plan_.reset();
    auto plan = std::make_unique<Plan>(want);
    // cuBLASLt is column-major: our row-major C (m x n) is its C^T (n x m) = B^T A^T. b_t's
    // rows, read column-major, are B (k x n), taken transposed ("T"); a's rows are A^T
    // (k x m), taken as they are ("N"): both K-major, the one layout FP8 allows.
    check(cublasLtMatmulDescCreate(&plan->op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
          "cublasLtMatmulDescCreate");
    const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
    check(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSA, &transpose,
                                         sizeof transpose),
          "cublasLtMatmulDescSetAttribute(TRANSA)");
    check(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSB, &keep, sizeof keep),
          "cublasLtMatmulDescSetAttribute(TRANSB)");
    const std::int8_t fast = fast_accumulation ? 1 : 0;
    check(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast,
                                         sizeof fast),
          "cublasLtMatmulDescSetAttribute(FAST_ACCUM)");
    set_factors(plan->op, a, b_t);
    check(cublasLtMatrixLayoutCreate(&plan->a_layout, CUDA_R_8F_E4M3, k, n, b_t.values.stride),
          "cublasLtMatrixLayoutCreate(B^T)");
    check(cublasLtMatrixLayoutCreate(&plan->b_layout, CUDA_R_8F_E4M3, k, m, a.values.stride),
          "cublasLtMatrixLayoutCreate(A)");
    check(cublasLtMatrixLayoutCreate(&plan->c_layout, CUDA_R_32F, n, m, c.stride),
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

bool CublasLtFp8::supports(ScaledFp8 a, ScaledFp8 b_t, Matrix c, bool fast_accumulation) {
  return prepare(a, b_t, c, fast_accumulation);
}

void CublasLtFp8::operator()(ScaledFp8 a, ScaledFp8 b_t, Matrix c, bool fast_accumulation) {
  if (!prepare(a, b_t, c, fast_accumulation)) {
    throw CudaError("cuBLASLt has no FP8 algorithm for this product (supports() says so)");
  }
  // The operands may change between calls of one plan.
  set_factors(plan_->op, a, b_t);
  const float alpha = 1.0f, beta = 0.0f;
  check(cublasLtMatmul(handle_.get(), plan_->op, &alpha, b_t.values.data, plan_->a_layout,
                       a.values.data, plan_->b_layout, &beta, c.data, plan_->c_layout, c.data,
                       plan_->c_layout, &plan_->algo, workspace_, kWorkspaceBytes, nullptr),
        "cublasLtMatmul");
}

}  // namespace ladder
