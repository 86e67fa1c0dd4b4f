// Stage 15: stage 14's mma.sync warp tiles fed by a cp.async ring of shared-memory stages,
// timed against stage 14 and cuBLAS with BF16 operands in the same run. --config all runs
// every tiling the stage is built with: the parameter search (scripts/search.py).
//   cmake --preset native && cmake --build --preset native --target 15_gpu_mma_pipelined
//   build-native/bin/15_gpu_mma_pipelined --help
#include "15_gpu_mma_pipelined/kernel.hpp"
#include "common/harness/tensor_stage.hpp"

int main(int argc, char** argv) {
  ladder::TensorStage stage;
  stage.program = "15_gpu_mma_pipelined";
  stage.summary = "mma.sync warp tiles fed by a cp.async ring of shared-memory stages";
  stage.config_help = "the tiling: block MxN, warp MxN, stages in the ring; all runs every one";
  stage.configs = ladder::mma_pipelined_configs();
  stage.launch = ladder::launch_gemm_mma_pipelined;
  stage.path_name = ladder::path_name;
  stage.baseline = ladder::baseline::mma_ldmatrix;
  stage.gpu = ladder::TensorGpu::sm80;
  stage.unfit_reason = ladder::mma_pipelined_unfit_reason;
  return ladder::run_tensor_stage(argc, argv, stage);
}
