// The program of the FP8 stage: its main fills in an Fp8Stage and hands it over. The program
// times the previous stage's BF16 default on the same random inputs rounded to BF16, then on
// E4M3 operands that the stage's own kernels quantise: the chosen variants per tensor; with
// the default, the per-block variant (after its ablation and other tilings, with --config all)
// and the whole call from FP32; then cuBLASLt FP8 per tensor and block-scaled (the per-block
// row's own ceiling, its share printed below the table); with --config all, the quantisation
// passes against cudaMemcpy.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/baselines.hpp"
#include "common/matrix_fp8.hpp"

namespace ladder {

class StreamKWorkspace;  // common/hopper/tile_parts.hpp

struct Fp8Stage {
  const char* program = "";          // the folder's name
  const char* summary = "";          // what --help says the stage does
  const char* config_help = "";      // what --help says --config picks
  std::vector<std::string> configs;  // the per-tensor variants, the default first
  // The divided variants' workspace: its bytes (asked after the GPU check), checked against the
  // GPU's free memory, then make_workspace, whose workspace every launch below is given.
  std::uint64_t (*workspace_bytes)() = nullptr;
  std::shared_ptr<const StreamKWorkspace> (*make_workspace)() = nullptr;
  OperandPath (*launch)(const std::string& config, ScaledFp8 a, ScaledFp8 b_t, Matrix c,
                        const StreamKWorkspace& workspace) = nullptr;
  // How many products of K the tensor cores sum between two promotions: the error bound's.
  int (*promotion_window)(const std::string& config, int k) = nullptr;
  // Per block: the variants (the default first; with --config all the others run too, each
  // labelled "per-block, <name>"), the default's ablation, their labels, and the window (one
  // block).
  std::vector<std::string> block_configs;
  OperandPath (*launch_block_scaled)(const std::string& config, BlockScaledFp8 a,
                                     BlockScaledFp8 b_t, Matrix c,
                                     const StreamKWorkspace& workspace) = nullptr;
  OperandPath (*launch_block_scaled_ablation)(BlockScaledFp8 a, BlockScaledFp8 b_t, Matrix c,
                                              const StreamKWorkspace& workspace) = nullptr;
  const char* block_scaled_label = "";
  const char* block_scaled_ablation_label = "";
  int block_window = 0;
  // The whole call from FP32 (the default's product, quantisation timed too).
  OperandPath (*launch_from_float)(Matrix a, Matrix b, const Fp8Workspace& work, Matrix c,
                                   const StreamKWorkspace& workspace) = nullptr;
  const char* from_float_label = "";
  // The stage's quantisation on the device, which makes the operands of every row.
  void (*scale)(Matrix src, Fp8Scale* scale) = nullptr;                             // per tensor
  void (*quantize)(Matrix src, const Fp8Scale* scale, MatrixFp8 dst) = nullptr;     // A
  void (*quantize_transposed)(Matrix src, const Fp8Scale* scale, MatrixFp8 dst) = nullptr;  // B^T
  const char* (*path_name)(OperandPath) = nullptr;
  baseline::Bf16Gemm (*baseline)() = nullptr;  // the previous stage's default
};

// The whole program, exit code included (common/harness/program.hpp's run_program).
int run_fp8_stage(int argc, char** argv, const Fp8Stage& stage);

}  // namespace ladder
