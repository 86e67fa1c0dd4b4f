// What every GPU matrix-product stage does around its kernels: inputs on host and device,
// timing with events, a full check of every result, the cuBLAS ceiling and the transfers.
#pragma once

#include <functional>
#include <string>

#include "common/cli.hpp"
#include "common/cublas_gemm.hpp"
#include "common/device_matrix.hpp"
#include "common/host_matrix.hpp"
#include "common/report.hpp"

namespace ladder {

class GemmBench {
 public:
  using Launch = std::function<void(Matrix a, Matrix b, Matrix c)>;

  // Random A and B from options.seed (B from seed + 1), copied to the GPU.
  GemmBench(const GemmShape& shape, const RunOptions& options);

  // Times `launch` (poisoning C before each run), checks C, adds a row.
  void run(Report& report, const std::string& variant, Role role, const Launch& launch);
  // cuBLAS SGEMM in FP32, timed and checked like a stage.
  void run_cublas(Report& report);
  // Host -> device copies of A and B plus device -> host of C, pageable host memory.
  void run_transfers(Report& report);

 private:
  double flops() const;

  GemmShape shape_;
  RunOptions options_;
  HostMatrix a_host_;
  HostMatrix b_host_;
  HostMatrix c_host_;
  DeviceMatrix a_;
  DeviceMatrix b_;
  DeviceMatrix c_;
  CublasGemm cublas_;
};

}  // namespace ladder
