// What the tensor-core stages (Part 4) do around their kernels, as GemmBench does for 03-12:
// FP32 random inputs rounded to BF16 on the device, timing, a full check of every result, and
// the cuBLAS BF16 ceiling. Part of ladder_harness_gpu: only GPU programs can use it.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/device_matrix.hpp"
#include "common/device_matrix_bf16.hpp"
#include "common/harness/cublas_gemm.hpp"
#include "common/harness/options.hpp"
#include "common/harness/report.hpp"
#include "common/host_matrix.hpp"

namespace ladder {

class L2Flush;  // common/harness/gpu_timing.hpp

// One operand of a Part 4 product: FP32 values rounded to BF16 on the device, and the rounded
// values widened back to FP32, on the device and on the host. A double reference computed
// from the widened values has every product exact, so a check sees only the kernel's error
// (the bench's, and tests/tensor_error_study.cpp's on its own inputs).
class Bf16Operand {
 public:
  // `values` is uploaded, rounded, and overwritten with the rounded values (widened).
  explicit Bf16Operand(HostMatrix values);

  MatrixBf16 rounded() const { return rounded_.view(); }  // device
  Matrix widened() const { return widened_.view(); }      // device
  Matrix widened_host() { return widened_host_.view(); }

 private:
  HostMatrix widened_host_;
  DeviceMatrix widened_;
  DeviceMatrixBf16 rounded_;
};

class TensorGemmBench {
 public:
  using Launch = std::function<void(MatrixBf16 a, MatrixBf16 b, Matrix c)>;
  using FloatLaunch = std::function<void(Matrix a, Matrix b, Matrix c)>;

  // Random FP32 A and B exactly as GemmBench makes them (fill_random, options.seed and
  // seed + 1), rounded to BF16 on the device before anything is timed (Bf16Operand).
  // Throws UsageError when the problem does not fit this machine's memory.
  TensorGemmBench(const GemmShape& shape, const RunOptions& options);
  ~TensorGemmBench();  // where L2Flush is complete

  // Times `launch` (C poisoned, and L2 flushed where options.l2 is "flushed", before each
  // run, as GemmBench::run), checks C within tensor_gemm_gamma(K), adds a row.
  void run(Report& report, const std::string& variant, Role role, const Launch& launch);
  // An FP32 kernel (a Part 3 stage as the baseline) on the widened rounded inputs, checked
  // within gemm_gamma(K): the same products as the BF16 rows, so its row compares like with
  // like.
  void run_float(Report& report, const std::string& variant, Role role,
                 const FloatLaunch& launch);
  // The ceiling: cuBLAS with BF16 A and B, FP32 accumulation and C, checked as run's rows.
  void run_cublas(Report& report);

  // The device views the launches get.
  MatrixBf16 a() const { return a_.rounded(); }
  MatrixBf16 b() const { return b_.rounded(); }
  Matrix c() const { return c_.view(); }

 private:
  void time_and_check(Report& report, const std::string& variant, Role role,
                      const std::function<void()>& launch, double gamma);

  GemmShape shape_;
  RunOptions options_;
  Bf16Operand a_;
  Bf16Operand b_;
  DeviceMatrix c_;
  CublasGemm cublas_;
  std::unique_ptr<L2Flush> l2_flush_;  // null unless options.l2 is "flushed"
};

}  // namespace ladder
