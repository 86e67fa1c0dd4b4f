#include "common/harness/gemm_bench.hpp"

#include "common/harness/fill.hpp"

namespace ladder {

CpuGemmBench::CpuGemmBench(const GemmShape& shape, const RunOptions& options)
    : shape_(shape),
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
