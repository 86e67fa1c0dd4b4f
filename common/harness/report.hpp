// The harness's side of the report: one measured row, and what a program does when no GPU is
// usable. Programs include program.hpp instead.
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

// Whether no usable GPU is a failure rather than a skip: the environment variable
// LADDER_REQUIRE_GPU, given its value (nullptr when unset), is set to anything but "" or "0".
// A machine meant to run the GPU tests sets it (scripts/gpu_check.sh, the `native` and
// `sanitize` test presets), so that a GPU the build has no code for, or too old a driver,
// fails there instead of passing as Skipped.
bool gpu_required(const char* variable_value);
bool gpu_required();  // reads LADDER_REQUIRE_GPU

// What a program or the test runner does when no GPU is usable: prints "skipped: " and
// `message` on stderr and returns kExitSkipped, or, when `required`, prints "error: " and
// `message`, then a line naming LADDER_REQUIRE_GPU, and returns kExitFailure. `prefix`
// starts each line ("04_gpu_shared_tiled: ", or "" for the test runner).
int no_usable_gpu(const std::string& prefix, const std::string& message, bool required);

}  // namespace ladder
