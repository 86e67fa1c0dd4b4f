#include "common/harness/tensor_gemm_bench.hpp"

#include <cstdint>
#include <utility>

#include "common/harness/fill.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/memory_budget.hpp"
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

TensorGemmBench::TensorGemmBench(const GemmShape& shape, const RunOptions& options)
    : shape_(fits_in_memory(shape)),
      options_(options),
      a_(random_host_matrix(shape.m, shape.k, options.seed)),
      b_(random_host_matrix(shape.k, shape.n, options.seed + 1)),
      c_(shape.m, shape.n) {
  if (options.flush_l2()) l2_flush_ = std::make_unique<L2Flush>();
}

TensorGemmBench::~TensorGemmBench() = default;

void TensorGemmBench::time_and_check(Report& report, const std::string& variant, Role role,
                                     const std::function<void()>& launch, double gamma) {
  Measurement row = time_gpu_gemm(shape_, options_, c_, l2_flush_.get(), launch);
  row.variant = variant;
  row.role = role;
  row.check = check_gemm_on_device(a_.widened(), b_.widened(), c_.view(), a_.widened_host(),
                                   b_.widened_host(), gamma);
  report.add(row);
}

void TensorGemmBench::run(Report& report, const std::string& variant, Role role,
                          const Launch& launch) {
  time_and_check(report, variant, role, [&] { launch(a(), b(), c()); },
                 tensor_gemm_gamma(shape_.k));
}

void TensorGemmBench::run_float(Report& report, const std::string& variant, Role role,
                                const FloatLaunch& launch) {
  time_and_check(report, variant, role, [&] { launch(a_.widened(), b_.widened(), c()); },
                 gemm_gamma(shape_.k));
}

void TensorGemmBench::run_cublas(Report& report) {
  run(report, "cuBLAS BF16 (FP32 accumulate)", Role::ceiling,
      [this](MatrixBf16 a, MatrixBf16 b, Matrix c) { cublas_(a, b, c); });
}

}  // namespace ladder
