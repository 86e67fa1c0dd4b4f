// Stage 18: persistent blocks, as many as the SMs hold, each looping over tiles of C in an
// order that reuses L2, timed against stage 17 and cuBLAS with BF16 operands in the same run.
// --config all adds its ablations (direct store; uneven rounds; row order; one tile per block).
// sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 18_gpu_persistent
//   build-native/bin/18_gpu_persistent --help
#include "18_gpu_persistent/kernel.hpp"
#include "common/harness/tensor_stage.hpp"

int main(int argc, char** argv) {
  ladder::TensorStage stage;
  stage.program = "18_gpu_persistent";
  stage.summary =
      "one persistent block per SM looping over the tiles of C, in groups of tile "
      "rows that share slices in L2, storing through TMA";
  stage.config_help =
      "the variant: the default (first) or one of its ideas turned off; all runs every one";
  stage.configs = ladder::persistent_configs();
  stage.label = "persistent ";
  stage.launch = ladder::launch_gemm_persistent;
  stage.path_name = ladder::tma_path_name;
  stage.baseline = ladder::baseline::warp_specialized;
  stage.gpu = ladder::TensorGpu::sm90a;
  return ladder::run_tensor_stage(argc, argv, stage);
}
