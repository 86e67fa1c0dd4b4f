// Command-line options: the parser, and the option groups the stage programs share.
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/harness/timing.hpp"

namespace ladder {

class Cli {
 public:
  Cli(std::string program, std::string summary);

  void add_int(const std::string& name, int* value, const std::string& help, int min = 1,
               int max = INT_MAX);
  void add_seed(const std::string& name, std::uint64_t* value, const std::string& help);
  void add_choice(const std::string& name, std::string* value, std::vector<std::string> choices,
                  const std::string& help);
  void add_flag(const std::string& name, bool* value, const std::string& help);
  // A check that runs after all options are read (for limits that involve several).
  void add_check(std::function<void()> check);

  // Reads argv ("--name value" or "--name=value"). Returns false when it printed the usage
  // for --help; throws UsageError naming the problem for anything it cannot accept.
  bool parse(int argc, char** argv);
  std::string usage() const;

 private:
  struct Option {
    std::string name;
    std::string help;
    std::string default_text;
    bool takes_value;
    std::function<void(const std::string&)> accept;
  };
  const Option* find(const std::string& name) const;

  std::string program_;
  std::string summary_;
  std::vector<Option> options_;
  std::vector<std::function<void()>> checks_;
};

// How long and how often to measure, which inputs, which output format.
struct RunOptions {
  Repeats repeats;
  std::uint64_t seed = 0;
  bool csv = false;
  // GPU programs: the L2 cache before each timed run, "flushed" (emptied, the default) or
  // "warm" (as the previous run left it). Empty for CPU programs, which have no --l2.
  std::string l2;
  bool flush_l2() const { return l2 == "flushed"; }
};
void add_run_options(Cli& cli, RunOptions& options);

// Defaults for GPU programs: kernels take milliseconds, so many runs are cheap.
RunOptions gpu_run_defaults();
// Defaults for CPU programs: a naive run takes seconds, so fewer runs.
RunOptions cpu_run_defaults();

// C (m x n) = A (m x k) * B (k x n). The default is the problem of the source articles:
// A 1920x1024 times B 1024x1280.
struct GemmShape {
  int m = 1920;
  int n = 1280;
  int k = 1024;
  std::string describe() const;  // "A 1920x1024 * B 1024x1280"
};
void add_gemm_shape(Cli& cli, GemmShape& shape);

// --config NAME|all over a stage's named variants (tilings, ablations): *chosen starts as the
// first, the stage's default; "all" runs every one (the parameter search).
void add_config_choice(Cli& cli, std::string* chosen, const std::vector<std::string>& configs,
                       const std::string& help);
// Whether the variant `name` runs under --config `chosen`.
inline bool config_selected(const std::string& chosen, const std::string& name) {
  return chosen == "all" || chosen == name;
}

// out (cols x rows) = transpose of in (rows x cols).
struct TransposeShape {
  int rows = 8192;
  int cols = 8192;
  std::string describe() const;  // "8192x8192 floats"
};
void add_transpose_shape(Cli& cli, TransposeShape& shape);

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

// "tile 32, 32x8 threads" for tile 32, block_rows 8, and so on.
std::string layout_name(int tile, int block_rows);

}  // namespace ladder
