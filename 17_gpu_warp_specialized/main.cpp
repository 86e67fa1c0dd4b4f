// Stage 17: warp specialisation, a producer warpgroup issuing TMA copies and two consumer
// warpgroups multiplying with wgmma, timed against stage 16 and cuBLAS with BF16 operands in
// the same run. --config all adds its ablations (wait_group 0; 128 x 256 tiles). sm_90a only:
// every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 17_gpu_warp_specialized
//   build-native/bin/17_gpu_warp_specialized --help
#include <string>
#include <vector>

#include "common/hopper/launch.hpp"
#include "17_gpu_warp_specialized/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("17_gpu_warp_specialized",
                  "a TMA producer warpgroup and two wgmma consumer warpgroups, handing ring "
                  "slots over mbarriers");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::warp_specialized_configs();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, configs,
      "the variant: the default (first) or one change to it; all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("17_gpu_warp_specialized", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  const auto stage16 = ladder::baseline::tma_wgmma();
  bench.run(report, stage16.label, ladder::Role::baseline, stage16.launch);
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_on_path(
        report, "warp-specialized " + name, ladder::Role::stage,
        [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_warp_specialized(name, a, b, c);
        },
        ladder::tma_path_name);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("17_gpu_warp_specialized", stage_main, argc, argv);
}
