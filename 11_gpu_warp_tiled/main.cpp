// Stage 11: warp tiling, timed against stage 10 and cuBLAS in the same run. --config all runs
// every tiling the stage is built with: the parameter search (scripts/search.py).
//   cmake --preset native && cmake --build --preset native --target 11_gpu_warp_tiled
//   build-native/bin/11_gpu_warp_tiled --help
#include "11_gpu_warp_tiled/kernel.hpp"
#include "common/harness/float_stage.hpp"

int main(int argc, char** argv) {
  ladder::FloatStage stage;
  stage.program = "11_gpu_warp_tiled";
  stage.summary = "register tiles arranged per warp: conflict-free shared loads";
  stage.config_help =
      "the tiling: block BMxBNxBK, warp, thread, threads, blocks per SM; all runs every one";
  stage.configs = ladder::warp_tiled_configs();
  stage.launch = ladder::launch_gemm_warp_tiled;
  stage.baseline = ladder::baseline::vectorized;
  return ladder::run_float_stage(argc, argv, stage);
}
