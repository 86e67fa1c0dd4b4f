#include "common/harness/gemm_bench.hpp"

#include "common/harness/fill.hpp"
#include "common/harness/memory_budget.hpp"

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

CpuGemmBench::CpuGemmBench(const GemmShape& shape, const RunOptions& options)
    : shape_(fits_in_memory(shape)),
      options_(options),
      a_(shape.m, shape.k),
      b_(shape.k, shape.n),
      c_(shape.m, shape.n) {
  fill_random(a_.view(), options.seed);
  fill_random(b_.view(), options.seed + 1);
}

void CpuGemmBench::run(Report& report, const std::string& variant, Role role, const Gemm& gemm) {
  Measurement row;
  row.variant = variant;
  row.role = role;
  row.work = 2.0 * shape_.m * shape_.n * static_cast<double>(shape_.k);
  row.timing = measure_host(
      options_.repeats, [&] { gemm(a_.view(), b_.view(), c_.view()); },
      [&] { poison(c_.view()); });
  if (!reference_) reference_ = reference_gemm(a_.view(), b_.view());
  row.check = check_gemm(c_.view(), *reference_, shape_.k);
  report.add(row);
}

}  // namespace ladder
