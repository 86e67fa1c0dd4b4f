// The bench of the CPU matrix-product stages: the GPU benches' inputs (gemm_bench.hpp), the
// timed runs, a check of every result against a double-precision reference.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/harness/program.hpp"
#include "common/matrix.hpp"

namespace ladder {

// Random A and B from options.seed (B from seed + 1), as the GPU benches make them.
class CpuGemmBench {
 public:
  CpuGemmBench(const GemmShape& shape, const RunOptions& options);
  ~CpuGemmBench();
  // Times `gemm` (C poisoned before each run), checks C, adds a row.
  void run(Report& report, const std::string& variant, Role role,
           const std::function<void(Matrix a, Matrix b, Matrix c)>& gemm);
  // The input B, for a variant that prepares its own layout of it before timing.
  Matrix b();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ladder
