// What the programs of the GPU matrix-product stages read from their command line: --help,
// the problem, the run options and --config. Part of the harness: the stage runners use it.
#pragma once

#include <string>
#include <vector>

#include "common/harness/program.hpp"

namespace ladder {

struct GemmCommandLine {
  GemmShape shape;
  RunOptions options = gpu_run_defaults();
  std::string config;  // a variant's name, or "all"
  Cli cli;             // holds pointers to the members above: a GemmCommandLine does not move

  // The options; --config picks one of `configs`, the first by default, or all of them.
  GemmCommandLine(const char* program, const char* summary,
                  const std::vector<std::string>& configs, const char* config_help)
      : cli(program, summary) {
    add_gemm_shape(cli, shape);
    add_run_options(cli, options);
    add_config_choice(cli, &config, configs, config_help);
  }
  GemmCommandLine(const GemmCommandLine&) = delete;
  GemmCommandLine& operator=(const GemmCommandLine&) = delete;
};

}  // namespace ladder
