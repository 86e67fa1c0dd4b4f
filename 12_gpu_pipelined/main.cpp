// Stage 12: stage 11's warp tiles fed by a ring of asynchronous copies, timed against stage 11
// and cuBLAS in the same run; --config all runs every tiling: the search (scripts/search.py).
//   cmake --preset native && cmake --build --preset native --target 12_gpu_pipelined
//   build-native/bin/12_gpu_pipelined --help
#include "12_gpu_pipelined/kernel.hpp"
#include "common/harness/float_stage.hpp"

int main(int argc, char** argv) {
  ladder::FloatStage stage;
  stage.program = "12_gpu_pipelined";
  stage.summary = "warp tiles fed by asynchronous copies into a ring of shared-memory slices";
  stage.config_help =
      "the tiling (block_warp_thread_threads_stages_blocks-per-SM); auto picks by the wave rule, "
      "all runs every one";
  stage.configs = ladder::pipelined_configs();
  stage.launch = ladder::launch_gemm_pipelined;
  stage.baseline = ladder::baseline::warp_tiled;
  stage.auto_config = ladder::pipelined_config_for;
  stage.unfit_reason = ladder::pipelined_unfit_reason;
  stage.ablations = ladder::pipelined_ablations();
  stage.ablate_help = "run the default tiling with one pipeline detail turned off; all runs each";
  stage.launch_ablation = ladder::launch_gemm_pipelined_ablation;
  return ladder::run_float_stage(argc, argv, stage);
}
