// Stage 18: persistent blocks, as many as the SMs hold, each looping over tiles of C in an
// order that reuses L2, timed against stage 17 and cuBLAS with BF16 operands in the same run.
// --config all adds its ablations (direct store; uneven rounds; row order; one tile per block).
// sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 18_gpu_persistent
//   build-native/bin/18_gpu_persistent --help
#include <string>
#include <vector>

#include "common/hopper/launch.hpp"
#include "18_gpu_persistent/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("18_gpu_persistent",
                  "one persistent block per SM looping over the tiles of C, in groups of tile "
                  "rows that share slices in L2, storing through TMA");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::persistent_configs();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, configs,
      "the variant: the default (first) or one of its ideas turned off; all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("18_gpu_persistent", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  const auto stage17 = ladder::baseline::warp_specialized();
  bench.run(report, stage17.label, ladder::Role::baseline, stage17.launch);
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_on_path(
        report, "persistent " + name, ladder::Role::stage,
        [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_persistent(name, a, b, c);
        },
        ladder::tma_path_name);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("18_gpu_persistent", stage_main, argc, argv);
}
