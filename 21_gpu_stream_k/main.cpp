// Stage 21: stage 19's kernel walking parts of tiles, so that the work fills the GPU when the
// tiles do not come in whole waves: split-K, Stream-K, narrower tiles, and a model of their
// times that picks among them per shape. Timed against stage 19's default and cuBLAS BF16 in
// the same run. --config all runs every variant: the model's evidence (scripts/shapes.py).
// sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 21_gpu_stream_k
//   build-native/bin/21_gpu_stream_k --help
#include <string>
#include <vector>

#include "21_gpu_stream_k/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/aligned_copies.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/hopper/launch.hpp"  // tma_path_name
#include "common/tensor_cores.hpp"   // require_hopper

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("21_gpu_stream_k",
                  "stage 19's kernel over parts of tiles: split-K, Stream-K and narrower tiles, "
                  "picked per shape");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, ladder::stream_k_configs(),
      "the variant: by_shape (the default: the model's pick), or a tiling and a division (dp, split, "
      "stream); all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("21_gpu_stream_k", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  ladder::require_device_memory(shape.describe() + " (stage 21's workspace)",
                                ladder::StreamKWorkspace::bytes_needed());
  const ladder::StreamKWorkspace workspace;
  const auto stage19 = ladder::baseline::clusters();
  bench.run(report, stage19.label, ladder::Role::baseline, stage19.launch);
  const std::vector<std::string> configs = ladder::stream_k_configs();
  ladder::OperandPath path = ladder::OperandPath::element;
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    path = bench.run_on_path(
        report, name, ladder::Role::stage,
        [name, &workspace](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_stream_k(name, a, b, c, workspace);
        },
        ladder::tma_path_name);
  }
  // The default alone on the TMA path, where A's or B's rows start off the 128-byte lines
  // (stage 16's ROW_ALIGNMENT.md): --config all is the model's evidence, where a copy is no
  // choice.
  if (config == configs.front() && path == ladder::OperandPath::tma) {
    ladder::run_with_aligned_copies(bench, shape, report, config,
                                    [&](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                                      ladder::launch_gemm_stream_k(config, a, b, c, workspace);
                                    });
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("21_gpu_stream_k", stage_main, argc, argv);
}
