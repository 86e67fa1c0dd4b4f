// Stage 18: persistent blocks walking the output tiles, in clusters of two that share each
// slice of B through TMA multicast, timed against stage 17 and cuBLAS with BF16 operands in the
// same run. --config all runs every variant the stage is built with (the default, its
// ablations, other tilings): the parameter search (scripts/search.py). sm_90a only: every
// other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 18_gpu_persistent_clusters
//   build-native/bin/18_gpu_persistent_clusters --help
#include <string>
#include <vector>

#include "16_gpu_tma_wgmma/kernel.hpp"  // tma_path
#include "17_gpu_warp_specialized/kernel.hpp"
#include "18_gpu_persistent_clusters/kernel.hpp"
#include "common/device_probe.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"
#include "common/tensor_map.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("18_gpu_persistent_clusters",
                  "persistent blocks over the output tiles, clusters of two sharing B through "
                  "TMA multicast");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::persistent_configs();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, configs,
      "the variant: the default (first), one of its ideas turned off, or another "
      "tiling; all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const auto device = ladder::require_device();
  ladder::require_hopper();

  ladder::Report report("18_gpu_persistent_clusters", shape.describe(), device.describe());
  ladder::TensorGemmBench bench(shape, options);
  bench.run(report, "17 warp-specialized", ladder::Role::baseline,
            [](MatrixBf16 a, MatrixBf16 b, Matrix c) {
              ladder::launch_gemm_warp_specialized(a, b, c);
            });
  const std::string path =
      ladder::tma_path_name(ladder::tma_path(bench.a(), bench.b()));
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run(report, name + ", " + path, ladder::Role::stage,
              [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                ladder::launch_gemm_persistent(name, a, b, c);
              });
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("18_gpu_persistent_clusters", stage_main, argc, argv);
}
