// Stage 11: warp tiling, timed against stage 10 and cuBLAS in the same run. --config all runs
// every tiling the stage is built with: the parameter search (scripts/search.py).
//   cmake --preset native && cmake --build --preset native --target 11_gpu_warp_tiled
//   build-native/bin/11_gpu_warp_tiled --help
#include <string>
#include <vector>

#include "11_gpu_warp_tiled/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

using ladder::Matrix;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("11_gpu_warp_tiled",
                  "register tiles arranged per warp: conflict-free shared loads");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::warp_tiled_configs();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, configs,
      "the tiling: block BMxBNxBK, warp, thread, threads, blocks per SM; all runs "
      "every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  ladder::Report report("11_gpu_warp_tiled", shape.describe(), device);
  ladder::GemmBench bench(shape, options);
  const auto stage10 = ladder::baseline::vectorized();
  bench.run(report, stage10.label, ladder::Role::baseline, stage10.launch);
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_on_path(
        report, name, ladder::Role::stage,
        [name](Matrix a, Matrix b, Matrix c) {
          return ladder::launch_gemm_warp_tiled(name, a, b, c);
        },
        ladder::path_name);
  }
  bench.run_cublas(report);
  bench.run_transfers(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("11_gpu_warp_tiled", stage_main, argc, argv);
}
