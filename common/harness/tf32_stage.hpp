// The program of the TF32 stage: its main fills in a Tf32Stage and hands it over. The program
// times the previous FP32 stage's kernel, the chosen variants on A and B as given, and cuBLAS
// TF32, on FP32 inputs rounded to TF32 values; --config with an ablation's name (or all) adds
// its rows: each on A and B^T, with B^T written from B by `transpose` inside the timed call,
// then the first alone on the B^T written, which prices the transpose.
#pragma once

#include <string>
#include <vector>

#include "common/baselines.hpp"

namespace ladder {

using NamedFloatLaunch = OperandPath (*)(const std::string& config, Matrix a, Matrix b, Matrix c);

struct Tf32Stage {
  const char* program = "";          // the folder's name
  const char* summary = "";          // what --help says the stage does
  const char* config_help = "";      // what --help says --config picks
  std::vector<std::string> configs;  // the variants on A and B, the default first
  NamedFloatLaunch launch = nullptr;
  std::vector<std::string> ablations;      // the variants on A and B^T
  NamedFloatLaunch launch_ablation = nullptr;  // takes B^T where launch takes B
  int (*b_t_stride)(int k) = nullptr;      // the floats between rows of B^T (n x k)
  baseline::FloatGemm (*baseline)() = nullptr;  // the previous FP32 stage's default
  baseline::Transpose (*transpose)() = nullptr;  // writes B^T for the ablation
  const char* transpose_label = "";               // its name in the rows: "stage 08"
};

// The whole program, exit code included (common/harness/program.hpp's run_program).
int run_tf32_stage(int argc, char** argv, const Tf32Stage& stage);

}  // namespace ladder
