// Stage 16: TMA copies into a ring of shared-memory slots and wgmma multiplying from them,
// timed against stage 15 (its default tiling) and cuBLAS with BF16 operands in the same run.
// --config all adds the ablation with stage 15's tile width. sm_90a only: every other GPU
// exits 77.
//   cmake --preset native && cmake --build --preset native --target 16_gpu_tma_wgmma
//   build-native/bin/16_gpu_tma_wgmma --help
#include "16_gpu_tma_wgmma/kernel.hpp"
#include "common/harness/tensor_stage.hpp"

int main(int argc, char** argv) {
  ladder::TensorStage stage;
  stage.program = "16_gpu_tma_wgmma";
  stage.summary = "TMA copies into a ring of shared-memory slots, wgmma multiplying from them";
  stage.config_help = "the tiling: the default (first) or the ablation; all runs both";
  stage.configs = ladder::tma_wgmma_configs();
  stage.label = "TMA + wgmma ";
  stage.launch = ladder::launch_gemm_tma_wgmma;
  stage.path_name = ladder::tma_path_name;
  stage.baseline = ladder::baseline::mma_pipelined;
  stage.gpu = ladder::TensorGpu::sm90a;
  return ladder::run_tensor_stage(argc, argv, stage);
}
