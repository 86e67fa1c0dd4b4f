// The program of a tensor-core stage whose variants are a table by name: its main fills in a
// TensorStage and hands it over. The program takes the problem, the run options and --config
// (a variant or all), then times the previous stage's kernel, the chosen variants and cuBLAS
// on the same BF16 inputs, and prints the report.
#pragma once

#include <string>
#include <vector>

#include "common/baselines.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

enum class TensorGpu {
  sm80,  // BF16 tensor cores (mma.sync): sm_80 and later
  sm90a  // wgmma, TMA, setmaxnreg: compute capability 9.0 exactly
};

struct DividedStage;  // common/harness/divided_stage.hpp

struct TensorStage {
  const char* program = "";          // the folder's name
  const char* summary = "";          // what --help says the stage does
  const char* config_help = "";      // what --help says --config picks
  std::vector<std::string> configs;  // the variants, the default first
  std::string label;                 // put before a variant's name in its row
  OperandPath (*launch)(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c) = nullptr;
  const char* (*path_name)(OperandPath) = nullptr;
  baseline::Bf16Gemm (*baseline)() = nullptr;  // the previous stage's default
  TensorGpu gpu = TensorGpu::sm80;
  // Why a variant cannot run on this GPU, or "": with --config all it is skipped, said on
  // stderr; named alone, its launcher refuses it (exit 2). Null where every variant runs.
  std::string (*unfit_reason)(const std::string& config) = nullptr;
  const DividedStage* divided = nullptr;  // a stage that divides tiles: its launches' workspace
};

// The whole program, exit code included (common/harness/program.hpp's run_program).
int run_tensor_stage(int argc, char** argv, const TensorStage& stage);

}  // namespace ladder
