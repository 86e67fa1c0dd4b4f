// The program of an FP32 stage whose tilings are a table by name: its main fills in a
// FloatStage and hands it over. The program takes the problem, the run options and --config,
// then times the previous stage's kernel, the chosen tilings, cuBLAS SGEMM and the transfers
// on the same inputs, and prints the report.
#pragma once

#include <string>
#include <vector>

#include "common/baselines.hpp"

namespace ladder {

struct FloatStage {
  const char* program = "";          // the folder's name
  const char* summary = "";          // what --help says the stage does
  const char* config_help = "";      // what --help says --config picks
  std::vector<std::string> configs;  // the tilings, the default first
  OperandPath (*launch)(const std::string& config, Matrix a, Matrix b, Matrix c) = nullptr;
  baseline::FloatGemm (*baseline)() = nullptr;  // the previous stage's default
  // Where set, "auto" (the tiling this returns for an m x n C) is --config's default.
  std::string (*auto_config)(int m, int n) = nullptr;
  // Why a tiling does not fit this GPU, or "": --config all skips it, said on stderr; named
  // alone, its launcher refuses it (exit 2). Null where every tiling fits.
  std::string (*unfit_reason)(const std::string& config) = nullptr;
  // Where set, --ablate runs the default tiling with one detail off; the first ablation turns
  // none off, and every run of --ablate includes it to compare with.
  std::vector<std::string> ablations;
  const char* ablate_help = "";
  OperandPath (*launch_ablation)(const std::string& ablation, Matrix a, Matrix b,
                                 Matrix c) = nullptr;
};

// The whole program, exit code included (common/harness/program.hpp's run_program).
int run_float_stage(int argc, char** argv, const FloatStage& stage);

}  // namespace ladder
