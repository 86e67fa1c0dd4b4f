// Stage 19: stage 18's persistent blocks in clusters of two that share each slice of B through
// TMA multicast, timed against stage 18 (the same tiles without clusters) and cuBLAS with BF16
// operands in the same run. --config all runs every tiling the stage is built with: the
// parameter search (scripts/search.py). sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 19_gpu_clusters
//   build-native/bin/19_gpu_clusters --help
#include "19_gpu_clusters/kernel.hpp"
#include "common/harness/tensor_stage.hpp"

int main(int argc, char** argv) {
  ladder::TensorStage stage;
  stage.program = "19_gpu_clusters";
  stage.summary = "persistent blocks in clusters of two sharing B through TMA multicast";
  stage.config_help =
      "the variant: the default (first), which picks its tiling per problem, or one tiling; "
      "all runs every one";
  stage.configs = ladder::cluster_configs();
  stage.launch = ladder::launch_gemm_clusters;
  stage.path_name = ladder::tma_path_name;
  stage.baseline = ladder::baseline::persistent;
  stage.gpu = ladder::TensorGpu::sm90a;
  return ladder::run_tensor_stage(argc, argv, stage);
}
