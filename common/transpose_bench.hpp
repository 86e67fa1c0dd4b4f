// What every transpose stage does around its kernels: input on host and device, timing
// with events, an exact check of every result, and the copy ceilings of the same run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/device_matrix.hpp"
#include "common/host_matrix.hpp"
#include "common/report.hpp"

namespace ladder {

class TransposeBench {
 public:
  using Launch = std::function<void(Matrix in, Matrix out)>;

  // A random rows x cols input from options.seed, copied to the GPU.
  TransposeBench(const TransposeShape& shape, const RunOptions& options);

  // Times `launch` (poisoning the output before each run), checks out == in^T bit for bit.
  void run(Report& report, const std::string& variant, Role role, const Launch& launch);
  // The common tiled copy kernel with the same launch shape, checked out == in.
  void run_copy(Report& report, int tile, int block_rows);
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
};

// "tile 32, 32x8 threads" for tile 32, block_rows 8, and so on.
std::string layout_name(int tile, int block_rows);

// The launch shape options every transpose stage takes: --tile 32|16 and
// --layout one|four|both (tile x tile threads moving one element each, tile x tile/4
// threads moving four each, e.g. 32x8).
struct TransposeLayout {
  std::string tile = "32";
  std::string layout = "both";
  int tile_size() const { return std::stoi(tile); }
  std::vector<int> block_rows() const;  // in the order the stages run them
};
void add_transpose_layout(Cli& cli, TransposeLayout& layout);

}  // namespace ladder
