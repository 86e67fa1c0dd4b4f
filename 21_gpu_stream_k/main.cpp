// Stage 21: stage 19's kernel walking parts of tiles, so that the work fills the GPU when the
// tiles do not come in whole waves: split-K, Stream-K, narrower tiles, and a model of their
// times that picks among them per shape. Timed against stage 19's default and cuBLAS BF16 in
// the same run; the default also after copying A and B to aligned rows, where theirs are not.
// --config all runs every variant: the model's evidence (scripts/shapes.py).
// sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 21_gpu_stream_k
//   build-native/bin/21_gpu_stream_k --help
#include <memory>

#include "21_gpu_stream_k/kernel.hpp"
#include "common/harness/divided_stage.hpp"
#include "common/harness/tensor_stage.hpp"

int main(int argc, char** argv) {
  ladder::TensorStage stage;
  stage.program = "21_gpu_stream_k";
  stage.summary =
      "stage 19's kernel over parts of tiles: split-K, Stream-K and narrower tiles, picked per "
      "shape";
  stage.config_help =
      "the variant: by_shape (the default: the model's pick), or a tiling and a division (dp, "
      "split, stream); all runs every one";
  stage.configs = ladder::stream_k_configs();
  ladder::DividedStage divided;
  divided.workspace_bytes = ladder::StreamKWorkspace::bytes_needed;
  divided.launch_with_workspace = [] {
    const auto workspace = std::make_shared<ladder::StreamKWorkspace>();
    return [workspace](const std::string& config, ladder::MatrixBf16 a, ladder::MatrixBf16 b,
                       ladder::Matrix c) {
      return ladder::launch_gemm_stream_k(config, a, b, c, *workspace);
    };
  };
  divided.aligned_copies = true;
  stage.divided = &divided;
  stage.path_name = ladder::tma_path_name;
  stage.baseline = ladder::baseline::clusters;
  stage.gpu = ladder::TensorGpu::sm90a;
  return ladder::run_tensor_stage(argc, argv, stage);
}
