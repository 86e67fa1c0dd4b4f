// Stage 20: TF32 for FP32 users, the persistent kernel on C^T = B^T A^T with B's slices read
// into registers, timed against stage 12 (FP32 FMA) and cuBLAS TF32 in the same run. --config
// all adds the swap's ablation: the kernel on A and B^T, with B^T written by stage 08's kernel
// inside the timed call. sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 20_gpu_tf32
//   build-native/bin/20_gpu_tf32 --help
#include "20_gpu_tf32/kernel.hpp"
#include "common/harness/tf32_stage.hpp"

int main(int argc, char** argv) {
  ladder::Tf32Stage stage;
  stage.program = "20_gpu_tf32";
  stage.summary =
      "FP32 operands read as TF32: C^T = B^T A^T, B's slices read into registers as given";
  stage.config_help =
      "the variant: the default (first), another tiling, or the swap's ablation (transposed_*, "
      "from B^T); all runs every one";
  stage.configs = ladder::tf32_configs();
  stage.launch = ladder::launch_gemm_tf32;
  stage.ablations = ladder::tf32_transposing_configs();
  stage.launch_ablation = ladder::launch_gemm_tf32_transposed;
  stage.b_t_stride = ladder::transposed_b_stride;
  stage.baseline = ladder::baseline::pipelined_fp32;
  stage.transpose = ladder::baseline::transpose_padded;
  stage.transpose_label = "stage 08";
  return ladder::run_tf32_stage(argc, argv, stage);
}
