#include "common/harness/gemm_bench.hpp"

#include <stdexcept>

#include "common/device_matrix.hpp"
#include "common/harness/cublas_gemm.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/report.hpp"
#include "common/harness/time_gemm.hpp"
#include "common/host_matrix.hpp"

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

struct GemmBench::State {
  GemmShape shape;
  RunOptions options;
  GemmInputs inputs;
  HostMatrix a_host;
  HostMatrix b_host;
  HostMatrix c_host;
  DeviceMatrix a;
  DeviceMatrix b;
  DeviceMatrix c;
  CublasGemm cublas;
  std::unique_ptr<L2Flush> l2_flush;  // null unless options.l2 is "flushed"

  State(const GemmShape& problem, const RunOptions& run, GemmInputs kind)
      : shape(fits_in_memory(problem)),
        options(run),
        inputs(kind),
        a_host(problem.m, problem.k),
        b_host(problem.k, problem.n),
        c_host(problem.m, problem.n),
        a(problem.m, problem.k),
        b(problem.k, problem.n),
        c(problem.m, problem.n) {
    fill_random(a_host.view(), run.seed);
    fill_random(b_host.view(), run.seed + 1);
    if (kind == GemmInputs::tf32) {
      round_to_tf32(a_host.view());
      round_to_tf32(b_host.view());
    }
    a.upload(a_host.view());
    b.upload(b_host.view());
    if (run.flush_l2()) l2_flush = std::make_unique<L2Flush>();
  }

  Measurement time_and_check(const std::string& variant, Role role, const GemmLaunch& launch,
                             double gamma) {
    Measurement row = time_gpu_gemm(shape, options, c, l2_flush.get(),
                                    [&] { launch(a.view(), b.view(), c.view()); });
    row.variant = variant;
    row.role = role;
    row.check =
        check_gemm_on_device(a.view(), b.view(), c.view(), a_host.view(), b_host.view(), gamma);
    return row;
  }

  // The row of a launcher that returns its path, labelled with it.
  OperandPath time_on_path(Report& report, const std::string& variant, Role role,
                           const GemmPathLaunch& launch, PathName name, double gamma) {
    TakenPath taken;
    Measurement row = time_and_check(
        variant, role, [&](Matrix x, Matrix y, Matrix z) { taken(launch(x, y, z)); }, gamma);
    return taken.add_labelled(report, row, name);
  }

  // The tensor-core bound holds only for inputs the tensor cores read exactly.
  double tf32_gamma() const {
    if (inputs != GemmInputs::tf32) {
      throw std::logic_error("GemmBench's TF32 rows need GemmInputs::tf32");
    }
    return tensor_gemm_gamma(shape.k);
  }
};

GemmBench::GemmBench(const GemmShape& shape, const RunOptions& options, GemmInputs inputs)
    : state_(std::make_unique<State>(shape, options, inputs)) {}

GemmBench::~GemmBench() = default;

void GemmBench::run(Report& report, const std::string& variant, Role role,
                    const GemmLaunch& launch) {
  report.add(state_->time_and_check(variant, role, launch, gemm_gamma(state_->shape.k)));
}

OperandPath GemmBench::run_on_path(Report& report, const std::string& variant, Role role,
                                   const GemmPathLaunch& launch, PathName name) {
  return state_->time_on_path(report, variant, role, launch, name, gemm_gamma(state_->shape.k));
}

void GemmBench::run_tf32(Report& report, const std::string& variant, Role role,
                         const GemmLaunch& launch) {
  report.add(state_->time_and_check(variant, role, launch, state_->tf32_gamma()));
}

OperandPath GemmBench::run_tf32_on_path(Report& report, const std::string& variant, Role role,
                                        const GemmPathLaunch& launch, PathName name) {
  return state_->time_on_path(report, variant, role, launch, name, state_->tf32_gamma());
}

void GemmBench::run_cublas(Report& report) {
  run(report, "cuBLAS SGEMM FP32", Role::ceiling,
      [this](Matrix a, Matrix b, Matrix c) { state_->cublas(a, b, c); });
}

void GemmBench::run_cublas_tf32(Report& report) {
  run_tf32(report, "cuBLAS TF32 (FP32 accumulate)", Role::ceiling,
           [this](Matrix a, Matrix b, Matrix c) { state_->cublas.tf32(a, b, c); });
}

void GemmBench::run_transfers(Report& report) {
  State& s = *state_;
  Measurement row;
  row.variant = "copies H2D A,B + D2H C";
  row.role = Role::transfer;
  row.unit = "GB/s";
  row.work = sizeof(float) * (static_cast<double>(s.shape.m) * s.shape.k +
                              static_cast<double>(s.shape.k) * s.shape.n +
                              static_cast<double>(s.shape.m) * s.shape.n);
  row.timing = measure_gpu(
      s.options.repeats,
      [&] {
        s.a.upload(s.a_host.view());
        s.b.upload(s.b_host.view());
        s.c.download(s.c_host.view());
      },
      [] {});
  report.add(row);
}

}  // namespace ladder
