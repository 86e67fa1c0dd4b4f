// What every transpose stage does around its kernels: input on host and device, timing
// with events, an exact check of every result, and the copy ceilings of the same run.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/device_matrix.hpp"
#include "common/harness/options.hpp"
#include "common/harness/report.hpp"
#include "common/host_matrix.hpp"

namespace ladder {

class L2Flush;  // common/harness/gpu_timing.hpp

class TransposeBench {
 public:
  using Launch = std::function<void(Matrix in, Matrix out)>;

  // A random rows x cols input from options.seed, copied to the GPU.
  TransposeBench(const TransposeShape& shape, const RunOptions& options);
  ~TransposeBench();  // where L2Flush is complete

  // Times `launch` (poisoning the output, and flushing L2 where options.l2 is "flushed",
  // before each run), checks out == in^T bit for bit.
  void run(Report& report, const std::string& variant, Role role, const Launch& launch);
  // A copy kernel with the same launch shape, checked out == in: straight through registers
  // (the bandwidth a tiled kernel can reach), or through a shared-memory tile with the
  // transposes' barrier (what staging costs before any bank conflict).
  enum class Copy { direct, through_shared };
  void run_copy(Report& report, int tile, int block_rows, Copy copy = Copy::direct);
  // Device-to-device cudaMemcpy of the same bytes: the ceiling every ratio refers to.
  void run_memcpy(Report& report);

 private:
  Measurement time(const std::string& variant, Role role, DeviceMatrix& out,
                   const Launch& launch);

  TransposeShape shape_;
  RunOptions options_;
  HostMatrix in_host_;
  HostMatrix out_host_;   // cols x rows
  HostMatrix copy_host_;  // rows x cols
  DeviceMatrix in_;
  DeviceMatrix out_;
  DeviceMatrix copy_;
  std::unique_ptr<L2Flush> l2_flush_;  // null unless options.l2 is "flushed"
};

}  // namespace ladder
