// Stage 22: FP8, stage 19's persistent clusters on E4M3 operands with promotion to FP32, timed
// against stage 19's BF16 default on the same inputs and cuBLASLt FP8 in the same run; also the
// per-block scales and the whole call from FP32. Two ceilings: cuBLASLt FP8 per tensor, which
// every % column refers to, and cuBLASLt's own block scaling on the per-block operands, whose
// % of the per-block row is the line below the table (on stderr with --csv). --config all runs
// every variant and the quantisation passes against cudaMemcpy. sm_90a only: every other GPU
// exits 77.
//   cmake --preset native && cmake --build --preset native --target 22_gpu_fp8
//   build-native/bin/22_gpu_fp8 --help
#include <memory>

#include "22_gpu_fp8/kernel.hpp"
#include "22_gpu_fp8/quantize.hpp"
#include "common/harness/fp8_stage.hpp"

using ladder::BlockScaledFp8;
using ladder::FactorLoads;
using ladder::Matrix;
using ladder::StreamKWorkspace;

int main(int argc, char** argv) {
  ladder::Fp8Stage stage;
  stage.program = "22_gpu_fp8";
  stage.summary =
      "FP8 (E4M3) operands with per-tensor or per-block scales, partial sums promoted to FP32 "
      "registers, against cuBLASLt FP8 with the same scales (per tensor; 1x128 of A and "
      "128x128 of B)";
  stage.config_help =
      "the variant: the default (first), another tiling, or promotion every 2 or 4 slices or "
      "never; all runs every one";
  stage.configs = ladder::fp8_configs();
  stage.workspace_bytes = StreamKWorkspace::bytes_needed;
  stage.make_workspace = [] {
    return std::shared_ptr<const StreamKWorkspace>(std::make_shared<StreamKWorkspace>());
  };
  stage.launch = ladder::launch_gemm_fp8;
  stage.promotion_window = ladder::fp8_promotion_window;
  // Promotion at every block of K, where its factors apply; its ablation loads the factors at
  // each promotion instead of a slice ahead.
  stage.block_configs = ladder::fp8_block_configs();
  stage.launch_block_scaled = [](const std::string& config, BlockScaledFp8 a, BlockScaledFp8 b_t,
                                 Matrix c, const StreamKWorkspace& workspace) {
    return ladder::launch_gemm_fp8_block_scaled(a, b_t, c, workspace, FactorLoads::slice_ahead,
                                                config);
  };
  stage.launch_block_scaled_ablation = [](BlockScaledFp8 a, BlockScaledFp8 b_t, Matrix c,
                                          const StreamKWorkspace& workspace) {
    return ladder::launch_gemm_fp8_block_scaled(a, b_t, c, workspace, FactorLoads::at_promotion);
  };
  stage.block_scaled_label = "per-block scales (1x128 A, 128x128 B)";
  stage.block_scaled_ablation_label = "per-block, factors loaded at the promotion";
  stage.block_window = ladder::kFp8ScaleBlock;
  stage.launch_from_float = ladder::launch_gemm_fp8_from_float;
  stage.from_float_label = "by_size from FP32 (quantisation timed too)";
  stage.scale = ladder::e4m3_scale_on_device;
  stage.quantize = ladder::quantize_e4m3;
  stage.quantize_transposed = ladder::quantize_e4m3_transposed;
  stage.path_name = ladder::path_name;
  stage.baseline = ladder::baseline::clusters;
  return ladder::run_fp8_stage(argc, argv, stage);
}
