#include <optional>

#include "common/harness/fill.hpp"
#include "common/harness/cpu_gemm_bench.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/report.hpp"
#include "common/host_matrix.hpp"

namespace ladder {
namespace {

// Checked before the members allocate: A, B and C in float, and the reference's value and
// magnitude of every element of C in double.
const GemmShape& fits_in_memory(const GemmShape& shape) {
  const std::uint64_t m = shape.m, n = shape.n, k = shape.k;
  require_host_memory(shape.describe(),
                      sizeof(float) * (m * k + k * n + m * n) + 2 * sizeof(double) * m * n);
  return shape;
}

}  // namespace

struct CpuGemmBench::State {
  GemmShape shape;
  RunOptions options;
  HostMatrix a;
  HostMatrix b;
  HostMatrix c;
  std::optional<GemmReference> reference;  // computed once, on first use
};

CpuGemmBench::CpuGemmBench(const GemmShape& shape, const RunOptions& options)
    : state_(new State{fits_in_memory(shape),
                       options,
                       HostMatrix(shape.m, shape.k),
                       HostMatrix(shape.k, shape.n),
                       HostMatrix(shape.m, shape.n),
                       {}}) {
  fill_random(state_->a.view(), options.seed);
  fill_random(state_->b.view(), options.seed + 1);
}

CpuGemmBench::~CpuGemmBench() = default;

Matrix CpuGemmBench::b() { return state_->b.view(); }

void CpuGemmBench::run(Report& report, const std::string& variant, Role role,
                       const std::function<void(Matrix a, Matrix b, Matrix c)>& gemm) {
  State& s = *state_;
  Measurement row;
  row.variant = variant;
  row.role = role;
  row.work = 2.0 * s.shape.m * s.shape.n * static_cast<double>(s.shape.k);
  row.timing = measure_host(
      s.options.repeats, [&] { gemm(s.a.view(), s.b.view(), s.c.view()); },
      [&] { poison(s.c.view()); });
  if (!s.reference) s.reference = reference_gemm(s.a.view(), s.b.view());
  row.check = check_gemm(s.c.view(), *s.reference, s.shape.k);
  report.add(row);
}

}  // namespace ladder
