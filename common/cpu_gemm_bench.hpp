// What the CPU matrix-product stages do around their loops: random inputs, host timing,
// a full check against the double-precision reference.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "common/cli.hpp"
#include "common/host_matrix.hpp"
#include "common/report.hpp"
#include "common/verify.hpp"

namespace ladder {

class CpuGemmBench {
 public:
  using Gemm = std::function<void(Matrix a, Matrix b, Matrix c)>;

  // Random A and B from options.seed (B from seed + 1), as the GPU stages make them.
  CpuGemmBench(const GemmShape& shape, const RunOptions& options);

  // Times `gemm` (poisoning C before each run), checks C, adds a row.
  void run(Report& report, const std::string& variant, Role role, const Gemm& gemm);

 private:
  GemmShape shape_;
  RunOptions options_;
  HostMatrix a_;
  HostMatrix b_;
  HostMatrix c_;
  std::optional<GemmReference> reference_;  // computed once, on first use
};

// Defaults for CPU programs: a naive run takes seconds, so fewer runs.
RunOptions cpu_run_defaults();

}  // namespace ladder
