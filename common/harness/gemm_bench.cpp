#include "common/harness/gemm_bench.hpp"

#include <stdexcept>

#include "common/harness/fill.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/memory_budget.hpp"

namespace ladder {
namespace {

// Checked before the members allocate: A, B and C in float, on the host and on the GPU.
const GemmShape& fits_in_memory(const GemmShape& shape) {
  const std::uint64_t m = shape.m, n = shape.n, k = shape.k;
  const std::uint64_t bytes = sizeof(float) * (m * k + k * n + m * n);
  require_host_memory(shape.describe(), bytes);
  require_device_memory(shape.describe(), bytes);
  return shape;
}

}  // namespace

Measurement time_gpu_gemm(const GemmShape& shape, const RunOptions& options, DeviceMatrix& c,
                          const L2Flush* l2_flush, const std::function<void()>& launch) {
  Measurement row;
  row.work = 2.0 * shape.m * shape.n * shape.k;
  row.l2 = options.l2;
  // The flush comes last: poisoning C would bring C's lines back into L2.
  row.timing = measure_gpu(options.repeats, launch, [&] {
    c.poison();
    if (l2_flush) (*l2_flush)();
  });
  return row;
}

GemmBench::GemmBench(const GemmShape& shape, const RunOptions& options, GemmInputs inputs)
    : shape_(fits_in_memory(shape)),
      options_(options),
      inputs_(inputs),
      a_host_(shape.m, shape.k),
      b_host_(shape.k, shape.n),
      c_host_(shape.m, shape.n),
      a_(shape.m, shape.k),
      b_(shape.k, shape.n),
      c_(shape.m, shape.n) {
  fill_random(a_host_.view(), options.seed);
  fill_random(b_host_.view(), options.seed + 1);
  if (inputs == GemmInputs::tf32) {
    round_to_tf32(a_host_.view());
    round_to_tf32(b_host_.view());
  }
  a_.upload(a_host_.view());
  b_.upload(b_host_.view());
  if (options.flush_l2()) l2_flush_ = std::make_unique<L2Flush>();
}

GemmBench::~GemmBench() = default;

void GemmBench::time_and_check(Report& report, const std::string& variant, Role role,
                               const Launch& launch, double gamma) {
  Measurement row = time_gpu_gemm(shape_, options_, c_, l2_flush_.get(),
                                  [&] { launch(a_.view(), b_.view(), c_.view()); });
  row.variant = variant;
  row.role = role;
  row.check = check_gemm_on_device(a_.view(), b_.view(), c_.view(), a_host_.view(),
                                   b_host_.view(), gamma);
  report.add(row);
}

void GemmBench::run(Report& report, const std::string& variant, Role role, const Launch& launch) {
  time_and_check(report, variant, role, launch, gemm_gamma(shape_.k));
}

void GemmBench::run_tf32(Report& report, const std::string& variant, Role role,
                         const Launch& launch) {
  // The bound holds only for inputs the tensor cores read exactly.
  if (inputs_ != GemmInputs::tf32) {
    throw std::logic_error("GemmBench::run_tf32 needs GemmInputs::tf32");
  }
  time_and_check(report, variant, role, launch, tensor_gemm_gamma(shape_.k));
}

void GemmBench::run_cublas(Report& report) {
  run(report, "cuBLAS SGEMM FP32", Role::ceiling,
      [this](Matrix a, Matrix b, Matrix c) { cublas_(a, b, c); });
}

void GemmBench::run_cublas_tf32(Report& report) {
  run_tf32(report, "cuBLAS TF32 (FP32 accumulate)", Role::ceiling,
           [this](Matrix a, Matrix b, Matrix c) { cublas_.tf32(a, b, c); });
}

void GemmBench::run_transfers(Report& report) {
  Measurement row;
  row.variant = "copies H2D A,B + D2H C";
  row.role = Role::transfer;
  row.unit = "GB/s";
  row.work = sizeof(float) * (static_cast<double>(shape_.m) * shape_.k +
                              static_cast<double>(shape_.k) * shape_.n +
                              static_cast<double>(shape_.m) * shape_.n);
  row.timing = measure_gpu(
      options_.repeats,
      [&] {
        a_.upload(a_host_.view());
        b_.upload(b_host_.view());
        c_.download(c_host_.view());
      },
      [] {});
  report.add(row);
}

}  // namespace ladder
