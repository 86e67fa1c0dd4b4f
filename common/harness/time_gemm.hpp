// What the GPU matrix-product benches share: one timed row of a product.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/device_matrix.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/report.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// How the GPU benches time a matrix product: `launch` run options.repeats times, with C
// poisoned and then, where l2_flush is not null, L2 flushed before each run. The row it
// returns has its work and L2 state; the caller names it and adds the check.
Measurement time_gpu_gemm(const GemmShape& shape, const RunOptions& options, DeviceMatrix& c,
                          const L2Flush* l2_flush, const std::function<void()>& launch);

// The path every run of a launcher took, for the row's label: the first run's, or
// std::logic_error when a later run on the same operands takes another.
class TakenPath {
 public:
  void operator()(OperandPath path) {
    if (taken_ && *taken_ != path) {
      throw std::logic_error("a launcher took two paths on the same operands");
    }
    taken_ = path;
  }
  OperandPath path() const { return taken_.value(); }
  // Adds `row` with ", " and the path's name at the end of its label; returns the path.
  OperandPath add_labelled(Report& report, Measurement row, PathName name) const {
    row.variant += std::string(", ") + name(path());
    report.add(row);
    return path();
  }

 private:
  std::optional<OperandPath> taken_;
};

}  // namespace ladder
