// Stage 17: warp specialisation, a producer warpgroup issuing TMA copies and two consumer
// warpgroups multiplying with wgmma, timed against stage 16 and cuBLAS with BF16 operands in
// the same run. --config all adds its ablations (wait_group 0; 128 x 256 tiles). sm_90a only:
// every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 17_gpu_warp_specialized
//   build-native/bin/17_gpu_warp_specialized --help
#include "17_gpu_warp_specialized/kernel.hpp"
#include "common/harness/tensor_stage.hpp"

int main(int argc, char** argv) {
  ladder::TensorStage stage;
  stage.program = "17_gpu_warp_specialized";
  stage.summary =
      "a TMA producer warpgroup and two wgmma consumer warpgroups, handing ring "
      "slots over mbarriers";
  stage.config_help = "the variant: the default (first) or one change to it; all runs every one";
  stage.configs = ladder::warp_specialized_configs();
  stage.label = "warp-specialized ";
  stage.launch = ladder::launch_gemm_warp_specialized;
  stage.path_name = ladder::tma_path_name;
  stage.baseline = ladder::baseline::tma_wgmma;
  stage.gpu = ladder::TensorGpu::sm90a;
  return ladder::run_tensor_stage(argc, argv, stage);
}
