// Stage 16: TMA copies into a ring of shared-memory slots and wgmma multiplying from them,
// timed against stage 15 (its default tiling) and cuBLAS with BF16 operands in the same run.
// --config all adds the ablation with stage 15's tile width. sm_90a only: every other GPU
// exits 77.
//   cmake --preset native && cmake --build --preset native --target 16_gpu_tma_wgmma
//   build-native/bin/16_gpu_tma_wgmma --help
#include <string>
#include <vector>

#include "common/hopper/launch.hpp"
#include "16_gpu_tma_wgmma/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("16_gpu_tma_wgmma",
                  "TMA copies into a ring of shared-memory slots, wgmma multiplying from them");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::tma_wgmma_configs();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(cli, &config, configs,
                            "the tiling: the default (first) or the ablation; all runs both");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("16_gpu_tma_wgmma", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  const auto stage15 = ladder::baseline::mma_pipelined();
  bench.run(report, stage15.label, ladder::Role::baseline, stage15.launch);
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_on_path(
        report, "TMA + wgmma " + name, ladder::Role::stage,
        [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_tma_wgmma(name, a, b, c);
        },
        ladder::tma_path_name);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("16_gpu_tma_wgmma", stage_main, argc, argv);
}
