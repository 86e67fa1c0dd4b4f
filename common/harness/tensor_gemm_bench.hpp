// The bench of the tensor-core stages: random FP32 inputs rounded to BF16 on the device, the
// timed runs, a check of every result, and the cuBLAS BF16 ceiling of the same run.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/harness/program.hpp"
#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"

namespace ladder {

class TensorGemmBench {
 public:
  using Launch = std::function<void(MatrixBf16 a, MatrixBf16 b, Matrix c)>;
  using FloatLaunch = std::function<void(Matrix a, Matrix b, Matrix c)>;
  // A launcher that picks its path from the operands (their alignment) and returns it.
  using PathLaunch = std::function<OperandPath(MatrixBf16 a, MatrixBf16 b, Matrix c)>;

  // Random FP32 A and B exactly as GemmBench makes them, rounded to BF16 before anything is
  // timed. Throws UsageError when the problem does not fit this machine's memory.
  TensorGemmBench(const GemmShape& shape, const RunOptions& options);
  ~TensorGemmBench();
  // Times `launch` (C poisoned, and L2 flushed unless --l2 warm, before each run), checks C
  // within the bound of exact products summed by tensor cores, adds a row.
  void run(Report& report, const std::string& variant, Role role, const Launch& launch);
  // The same, the label ending in ", " and the name of the path taken, which it returns.
  OperandPath run_on_path(Report& report, const std::string& variant, Role role,
                          const PathLaunch& launch, PathName name);
  // An FP32 kernel on the rounded inputs widened back to FP32: the same products as the BF16
  // rows, so its row compares like with like.
  void run_float(Report& report, const std::string& variant, Role role, const FloatLaunch& launch);
  // The ceiling: cuBLAS with BF16 A and B, FP32 accumulation and C.
  void run_cublas(Report& report);
  // The device views the launches get.
  MatrixBf16 a() const;
  MatrixBf16 b() const;
  Matrix c() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ladder
