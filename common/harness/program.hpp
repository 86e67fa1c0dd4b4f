// What a stage program includes: its exit codes, its command line, and the report it prints.
// The benches (gemm_bench.hpp and its siblings) time and check the kernels into the report.
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ladder {

// 0 verified, 1 wrong result or error, 2 bad usage, 77 no usable GPU (ctest: Skipped).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitSkipped = 77;

// Runs a program's body; what it throws becomes one line on stderr and an exit code:
// UsageError 2, UnsupportedGpuError and NoDeviceError 77, anything else 1.
int run_program(const char* program, const std::function<int(int, char**)>& body, int argc,
                char** argv);

std::string require_gpu();      // device 0, checked (NoDeviceError), described for the report
std::string cpu_description();  // the CPU's model and the CPU stages' compiler flags

// The command line: "--name value" or "--name=value", and --help.
class Cli {
 public:
  Cli(std::string program, std::string summary);
  ~Cli();
  void add_int(const std::string& name, int* value, const std::string& help, int min = 1,
               int max = INT_MAX);
  void add_seed(const std::string& name, std::uint64_t* value, const std::string& help);
  void add_choice(const std::string& name, std::string* value, std::vector<std::string> choices,
                  const std::string& help);
  void add_flag(const std::string& name, bool* value, const std::string& help);
  void add_check(std::function<void()> check);  // run after every option is read
  // False when it printed the usage for --help; throws UsageError for anything it refuses.
  bool parse(int argc, char** argv);
  std::string usage() const;

 private:
  struct Options;
  std::unique_ptr<Options> options_;
};

struct Repeats {
  int warmup = 1;  // untimed runs first: caches, clocks, lazy loading
  int timed = 5;   // the median of these is reported
};

struct RunOptions {
  Repeats repeats;
  std::uint64_t seed = 0;
  bool csv = false;
  std::string l2;  // GPU programs: "flushed" (before each timed run) or "warm"; CPU: empty
  bool flush_l2() const { return l2 == "flushed"; }
};
void add_run_options(Cli& cli, RunOptions& options);
RunOptions gpu_run_defaults();  // kernels take milliseconds: many runs
RunOptions cpu_run_defaults();  // a naive CPU run takes seconds: fewer

// C (m x n) = A (m x k) * B (k x n); the default is the source articles' problem.
struct GemmShape {
  int m = 1920;
  int n = 1280;
  int k = 1024;
  std::string describe() const;  // "A 1920x1024 * B 1024x1280"
};
void add_gemm_shape(Cli& cli, GemmShape& shape);

// --config NAME|all: *chosen starts as the first variant, the default; "all" runs every one.
void add_config_choice(Cli& cli, std::string* chosen, const std::vector<std::string>& configs,
                       const std::string& help);
inline bool config_selected(const std::string& chosen, const std::string& name) {
  return chosen == "all" || chosen == name;
}

enum class Role {
  baseline,  // the previous stage's kernel, run again so that ratios come from one run
  stage,     // a variant this stage teaches
  ceiling,   // what the hardware and a vendor library reach: cuBLAS, cudaMemcpy
  transfer,  // host <-> device copies, timed apart from the kernels
};

struct Measurement;  // one row: common/harness/report.hpp

// How a program names the path a launcher took, in its rows: path_name
// (common/operand_path.hpp) or a stage's own.
enum class OperandPath;
using PathName = const char* (*)(OperandPath);

// The rows a program prints, as a table or CSV, each beside the same run's ceiling and baseline.
class Report {
 public:
  Report(std::string stage, std::string problem, std::string device);
  ~Report();
  void add(Measurement measurement);
  const std::vector<Measurement>& measurements() const;
  // Prints the table or CSV; returns 0 when every result verified, else 1.
  int print(bool csv) const;
  std::string table_text() const;
  std::string csv_text() const;

 private:
  struct Rows;
  std::unique_ptr<Rows> rows_;
};

}  // namespace ladder
