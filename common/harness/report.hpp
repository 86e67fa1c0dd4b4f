// The result block every stage prints, or its CSV rows.
#pragma once

#include <string>
#include <vector>

#include "common/harness/timing.hpp"
#include "common/harness/verify.hpp"

namespace ladder {

enum class Role {
  baseline,  // the previous stage's kernel, run again here so ratios come from one run
  stage,     // a variant this stage teaches
  ceiling,   // what the hardware and a vendor library reach: cuBLAS, cudaMemcpy
  transfer,  // host <-> device copies, timed apart from the kernels
};

struct Measurement {
  std::string variant;
  Role role = Role::stage;
  Timing timing;
  double work = 0;                   // per run: floating-point operations, or bytes moved
  std::string unit = "GFLOP/s";      // "GFLOP/s" or "GB/s" (decimal: 1e9 per second)
  CheckResult check;                 // checked == 0 for rows that produce no result
  std::string l2;                    // "flushed" or "warm" (RunOptions::l2); empty where it
                                     // does not apply: CPU stages, transfers
  double rate() const { return work / (timing.median_ms * 1e-3) / 1e9; }
};

class Report {
 public:
  // stage: "04_gpu_shared_tiled"; problem: "A 1920x1024 * B 1024x1280"; device: the
  // GPU's name, or the CPU model and compiler flags for CPU stages.
  Report(std::string stage, std::string problem, std::string device);

  void add(Measurement measurement);
  const std::vector<Measurement>& measurements() const { return rows_; }

  // Prints the table (or CSV) to stdout; returns the exit code: 0 when every result
  // verified, 1 otherwise.
  int print(bool csv) const;

  // What print writes: the table for a reader, or one CSV row per measurement.
  std::string table_text() const;
  std::string csv_text() const;

 private:
  const Measurement* ceiling(const std::string& unit) const;
  const Measurement* baseline_for(std::size_t row) const;

  std::string stage_;
  std::string problem_;
  std::string device_;
  std::vector<Measurement> rows_;
};

// For CPU stages: the processor's model name and the flags the stages were compiled with.
std::string cpu_description();

}  // namespace ladder
