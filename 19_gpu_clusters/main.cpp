// Stage 19: stage 18's persistent blocks in clusters of two that share each slice of B through
// TMA multicast, timed against stage 18 (the same tiles without clusters) and cuBLAS with BF16
// operands in the same run. --config all runs every tiling the stage is built with: the
// parameter search (scripts/search.py). sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 19_gpu_clusters
//   build-native/bin/19_gpu_clusters --help
#include <string>
#include <vector>

#include "common/hopper/launch.hpp"
#include "19_gpu_clusters/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("19_gpu_clusters",
                  "persistent blocks in clusters of two sharing B through TMA multicast");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::cluster_configs();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, configs,
      "the variant: the default (first), which picks its tiling per problem, or one tiling; "
      "all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("19_gpu_clusters", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  const auto stage18 = ladder::baseline::persistent();
  bench.run(report, stage18.label, ladder::Role::baseline, stage18.launch);
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_on_path(
        report, name, ladder::Role::stage,
        [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_clusters(name, a, b, c);
        },
        ladder::tma_path_name);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("19_gpu_clusters", stage_main, argc, argv);
}
