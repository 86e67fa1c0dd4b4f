// Stage 15: stage 14's mma.sync warp tiles fed by a cp.async ring of shared-memory stages,
// timed against stage 14 and cuBLAS with BF16 operands in the same run. --config all runs
// every tiling the stage is built with: the parameter search (scripts/search.py).
//   cmake --preset native && cmake --build --preset native --target 15_gpu_mma_pipelined
//   build-native/bin/15_gpu_mma_pipelined --help
#include <cstdio>
#include <string>
#include <vector>

#include "15_gpu_mma_pipelined/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("15_gpu_mma_pipelined",
                  "mma.sync warp tiles fed by a cp.async ring of shared-memory stages");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::mma_pipelined_configs();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, configs,
      "the tiling: block MxN, warp MxN, stages in the ring; all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_bf16_tensor_cores();

  ladder::Report report("15_gpu_mma_pipelined", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  const auto stage14 = ladder::baseline::mma_ldmatrix();
  bench.run(report, stage14.label, ladder::Role::baseline, stage14.launch);
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    // A named tiling that does not fit is refused by the launcher (exit 2); "all" skips it.
    if (config == "all") {
      if (const std::string reason = ladder::mma_pipelined_unfit_reason(name); !reason.empty()) {
        std::fprintf(stderr, "skipped: %s\n", reason.c_str());
        continue;
      }
    }
    bench.run_on_path(
        report, name, ladder::Role::stage,
        [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_mma_pipelined(name, a, b, c);
        },
        ladder::path_name);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("15_gpu_mma_pipelined", stage_main, argc, argv);
}
