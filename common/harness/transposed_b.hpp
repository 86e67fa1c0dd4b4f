// The TF32 stage's ablation around a GemmBench: rows for a launcher that takes A and B^T
// (n x k, rows padded to 32 floats) in place of B, with B^T written from B by a transpose
// inside each timed call, as a caller who holds B pays.
#pragma once

#include <memory>
#include <string>

#include "common/baselines.hpp"
#include "common/harness/gemm_bench.hpp"

namespace ladder {

class TransposedB {
 public:
  // Throws UsageError unless the transpose covers K and B^T of `shape` (n x k, rows of
  // `b_t_stride` floats, the stage's choice) is a valid matrix: the command line's check,
  // before anything is allocated.
  static void check(const GemmShape& shape, int b_t_stride);
  // The B^T workspace; throws UsageError when it does not fit the device's memory.
  TransposedB(const GemmShape& shape, int b_t_stride);
  ~TransposedB();
  // A stage's row: `transpose` writes B^T from B, then `launch` runs on A and B^T, both timed;
  // with transpose null, the launcher alone, on the B^T the last call wrote.
  OperandPath run(GemmBench& bench, Report& report, const std::string& variant,
                  const GemmPathLaunch& launch, baseline::Transpose transpose);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ladder
