// The bench of the FP32 matrix-product stages on the GPU: random inputs, the timed runs, a check
// of every result against a double-precision reference, and the ceilings of the same run (the
// CPU stages' bench is cpu_gemm_bench.hpp).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/harness/program.hpp"
#include "common/matrix.hpp"

namespace ladder {

using GemmLaunch = std::function<void(Matrix a, Matrix b, Matrix c)>;
// A launcher that picks its path from the operands' alignment, and returns it.
using GemmPathLaunch = std::function<OperandPath(Matrix a, Matrix b, Matrix c)>;

// The inputs a GemmBench makes: random floats, or the same rounded to TF32 values, so that
// the tensor cores read them exactly and a check sees only the kernel's error.
enum class GemmInputs { fp32, tf32 };

// Random inputs from options.seed (B from seed + 1), copied to the device.
class GemmBench {
 public:
  GemmBench(const GemmShape& shape, const RunOptions& options,
            GemmInputs inputs = GemmInputs::fp32);
  ~GemmBench();
  // Times `launch` (C poisoned, and L2 flushed unless --l2 warm, before each run), checks C
  // within the bound of an FP32 sum, adds a row.
  void run(Report& report, const std::string& variant, Role role, const GemmLaunch& launch);
  // The same, the label ending in ", " and the name of the path taken, which it returns.
  OperandPath run_on_path(Report& report, const std::string& variant, Role role,
                          const GemmPathLaunch& launch, PathName name);
  // A tensor-core kernel on GemmInputs::tf32: checked within the bound of exact products
  // summed by tensor cores.
  void run_tf32(Report& report, const std::string& variant, Role role, const GemmLaunch& launch);
  OperandPath run_tf32_on_path(Report& report, const std::string& variant, Role role,
                               const GemmPathLaunch& launch, PathName name);
  void run_cublas(Report& report);       // the ceiling: cuBLAS SGEMM
  void run_cublas_tf32(Report& report);  // the TF32 ceiling: cuBLAS with TF32 products
  void run_transfers(Report& report);    // copies of A and B in, C out (pageable memory)

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ladder
