#include "common/harness/tensor_gemm_bench.hpp"

#include <cstdint>
#include <utility>

#include "common/harness/bf16_operand.hpp"
#include "common/harness/cublas_gemm.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/report.hpp"
#include "common/harness/time_gemm.hpp"
#include "common/harness/verify.hpp"

namespace ladder {
namespace {

// Checked before the members allocate. On the host the widened A and B; on the GPU A and B
// in FP32 (widened) and BF16 (rounded), and C in FP32.
const GemmShape& fits_in_memory(const GemmShape& shape) {
  const std::uint64_t m = shape.m, n = shape.n, k = shape.k;
  const std::uint64_t operands = m * k + k * n;
  require_host_memory(shape.describe(), sizeof(float) * operands);
  require_device_memory(shape.describe(),
                        (sizeof(float) + sizeof(bf16)) * operands + sizeof(float) * m * n);
  return shape;
}

}  // namespace

Bf16Operand::Bf16Operand(HostMatrix values)
    : widened_host_(std::move(values)),
      widened_(widened_host_.height(), widened_host_.width(), widened_host_.stride()),
      rounded_(widened_host_.height(), widened_host_.width(), widened_host_.stride()) {
  widened_.upload(widened_host_.view());
  round_to_bf16(widened_.view(), rounded_.view());
  widen_to_float(rounded_.view(), widened_.view());
  widened_.download(widened_host_.view());
}

struct TensorGemmBench::State {
  GemmShape shape;
  RunOptions options;
  Bf16Operand a;
  Bf16Operand b;
  DeviceMatrix c;
  CublasGemm cublas;
  std::unique_ptr<L2Flush> l2_flush;  // null unless options.l2 is "flushed"

  State(const GemmShape& problem, const RunOptions& run)
      : shape(fits_in_memory(problem)),
        options(run),
        a(random_host_matrix(problem.m, problem.k, run.seed)),
        b(random_host_matrix(problem.k, problem.n, run.seed + 1)),
        c(problem.m, problem.n) {
    if (run.flush_l2()) l2_flush = std::make_unique<L2Flush>();
  }

  Measurement time_and_check(const std::string& variant, Role role,
                             const std::function<void()>& launch, double gamma) {
    Measurement row = time_gpu_gemm(shape, options, c, l2_flush.get(), launch);
    row.variant = variant;
    row.role = role;
    row.check = check_gemm_on_device(a.widened(), b.widened(), c.view(), a.widened_host(),
                                     b.widened_host(), gamma);
    return row;
  }
};

TensorGemmBench::TensorGemmBench(const GemmShape& shape, const RunOptions& options)
    : state_(std::make_unique<State>(shape, options)) {}

TensorGemmBench::~TensorGemmBench() = default;

MatrixBf16 TensorGemmBench::a() const { return state_->a.rounded(); }
MatrixBf16 TensorGemmBench::b() const { return state_->b.rounded(); }
Matrix TensorGemmBench::c() const { return state_->c.view(); }

void TensorGemmBench::run(Report& report, const std::string& variant, Role role,
                          const Launch& launch) {
  report.add(state_->time_and_check(
      variant, role, [&] { launch(a(), b(), c()); }, tensor_gemm_gamma(state_->shape.k)));
}

OperandPath TensorGemmBench::run_on_path(Report& report, const std::string& variant, Role role,
                                         const PathLaunch& launch, PathName name) {
  TakenPath taken;
  Measurement row = state_->time_and_check(
      variant, role, [&] { taken(launch(a(), b(), c())); }, tensor_gemm_gamma(state_->shape.k));
  return taken.add_labelled(report, row, name);
}

void TensorGemmBench::run_float(Report& report, const std::string& variant, Role role,
                                const FloatLaunch& launch) {
  report.add(state_->time_and_check(
      variant, role, [&] { launch(state_->a.widened(), state_->b.widened(), c()); },
      gemm_gamma(state_->shape.k)));
}

void TensorGemmBench::run_cublas(Report& report) {
  run(report, "cuBLAS BF16 (FP32 accumulate)", Role::ceiling,
      [this](MatrixBf16 a, MatrixBf16 b, Matrix c) { state_->cublas(a, b, c); });
}

}  // namespace ladder
