// The harness's side of the report: one measured row. Programs include program.hpp instead.
#pragma once

#include <string>

#include "common/harness/program.hpp"
#include "common/harness/timing.hpp"
#include "common/harness/verify.hpp"

namespace ladder {

struct Measurement {
  std::string variant;
  Role role = Role::stage;
  Timing timing;
  double work = 0;               // per run: floating-point operations, or bytes moved
  std::string unit = "GFLOP/s";  // "GFLOP/s" or "GB/s" (decimal: 1e9 per second)
  CheckResult check;             // checked == 0 for rows that produce no result
  std::string l2;                // "flushed" or "warm" (RunOptions::l2); empty where it does
                                 // not apply: CPU stages, transfers
  double rate() const { return work / (timing.median_ms * 1e-3) / 1e9; }
};

}  // namespace ladder
