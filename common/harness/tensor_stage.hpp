// The program of a tensor-core stage whose variants are a table by name: its main fills in a
// TensorStage and hands it over. The program takes the problem, the run options and --config
// (a variant or all), then times the previous stage's kernel, the chosen variants and cuBLAS
// on the same BF16 inputs, and prints the report.
#pragma once

#include <cstdint>
#include <functional>
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

// A launcher of a stage's variants by name that returns the path it took.
using NamedBf16Launch =
    std::function<OperandPath(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c)>;

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
  // Where the launches share a workspace: its bytes (asked after the GPU check), checked
  // against the GPU's free memory, then this, which allocates it and returns the launcher over
  // it (used in place of launch).
  std::uint64_t (*workspace_bytes)() = nullptr;
  std::function<NamedBf16Launch()> launch_with_workspace;
  // Time the default again after copying A and B to rows of whole 128-byte lines inside the
  // timed call, where their rows start off the lines (a TMA box row then spans five 32-byte
  // sectors, not four): what the copy costs against the faster loads.
  bool aligned_copies = false;
};

// The whole program, exit code included (common/harness/program.hpp's run_program).
int run_tensor_stage(int argc, char** argv, const TensorStage& stage);

}  // namespace ladder
