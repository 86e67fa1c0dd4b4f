// What the matrix-product stages do around their kernels: random inputs, timing, a full
// check of every result against a double-precision reference. CpuGemmBench for the CPU
// stages (01, 02), GemmBench for the GPU stages (03-12), which also run the cuBLAS ceiling
// and time the transfers.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/device_matrix.hpp"
#include "common/harness/cublas_gemm.hpp"
#include "common/harness/options.hpp"
#include "common/harness/report.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"

namespace ladder {

class L2Flush;  // common/harness/gpu_timing.hpp

class CpuGemmBench {
 public:
  using Gemm = std::function<void(Matrix a, Matrix b, Matrix c)>;

  // Random A and B from options.seed (B from seed + 1), as the GPU stages make them.
  CpuGemmBench(const GemmShape& shape, const RunOptions& options);

  // Times `gemm` (poisoning C before each run), checks C, adds a row.
  void run(Report& report, const std::string& variant, Role role, const Gemm& gemm);

  // The input B, for a variant that prepares its own layout of it before timing.
  Matrix b() { return b_.view(); }

 private:
  GemmShape shape_;
  RunOptions options_;
  HostMatrix a_;
  HostMatrix b_;
  HostMatrix c_;
  std::optional<GemmReference> reference_;  // computed once, on first use
};

// How the GPU benches (GemmBench, TensorGemmBench) time a matrix product: `launch` run
// options.repeats times, with C poisoned and then, where l2_flush is not null, L2 flushed
// before each run. The row it returns has its work and L2 state; the caller names it and
// adds the check. Part of ladder_harness_gpu.
Measurement time_gpu_gemm(const GemmShape& shape, const RunOptions& options, DeviceMatrix& c,
                          const L2Flush* l2_flush, const std::function<void()>& launch);

// The inputs a GemmBench makes: random floats, or the same rounded to TF32 values
// (round_to_tf32) for stage 18's TF32 variant, so that the tensor cores read them exactly and
// a check sees only the kernel's error, as TensorGemmBench does with BF16.
enum class GemmInputs { fp32, tf32 };

// Part of ladder_harness_gpu: only GPU programs can use it.
class GemmBench {
 public:
  using Launch = std::function<void(Matrix a, Matrix b, Matrix c)>;

  // Random A and B from options.seed (B from seed + 1), rounded as `inputs` says, copied to
  // the GPU.
  GemmBench(const GemmShape& shape, const RunOptions& options,
            GemmInputs inputs = GemmInputs::fp32);
  ~GemmBench();  // where L2Flush is complete

  // Times `launch` (poisoning C, and flushing L2 where options.l2 is "flushed", before each
  // run), checks C, adds a row.
  void run(Report& report, const std::string& variant, Role role, const Launch& launch);
  // A tensor-core kernel on TF32 inputs (GemmInputs::tf32): the same, checked within
  // tensor_gemm_gamma(K), the bound of exact products summed by tensor cores.
  void run_tf32(Report& report, const std::string& variant, Role role, const Launch& launch);
  // cuBLAS SGEMM in FP32, timed and checked like a stage.
  void run_cublas(Report& report);
  // The TF32 ceiling: cuBLAS with CUBLAS_COMPUTE_32F_FAST_TF32, checked as run_tf32's rows.
  void run_cublas_tf32(Report& report);
  // Host -> device copies of A and B plus device -> host of C, pageable host memory.
  void run_transfers(Report& report);

  // The device views every launch gets: a stage whose launcher picks a path from its
  // operands' alignment names the path in its rows before running.
  Matrix a() const { return a_.view(); }
  Matrix b() const { return b_.view(); }
  Matrix c() const { return c_.view(); }

 private:
  void time_and_check(Report& report, const std::string& variant, Role role,
                      const Launch& launch, double gamma);

  GemmShape shape_;
  RunOptions options_;
  GemmInputs inputs_;
  HostMatrix a_host_;
  HostMatrix b_host_;
  HostMatrix c_host_;
  DeviceMatrix a_;
  DeviceMatrix b_;
  DeviceMatrix c_;
  CublasGemm cublas_;
  std::unique_ptr<L2Flush> l2_flush_;  // null unless options.l2 is "flushed"
};

}  // namespace ladder
