// Stage 12: stage 11's warp tiles with the next slices copied into shared memory while the
// current one is multiplied, timed against stage 11 and cuBLAS in the same run. --config all
// runs every tiling the stage is built with: the parameter search (scripts/search.py).
//   cmake --preset native && cmake --build --preset native --target 12_gpu_pipelined
//   build-native/bin/12_gpu_pipelined --help
#include <cstdio>
#include <string>
#include <vector>

#include "11_gpu_warp_tiled/kernel.hpp"
#include "12_gpu_pipelined/kernel.hpp"
#include "common/device_probe.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

using ladder::Matrix;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("12_gpu_pipelined",
                  "warp tiles fed by asynchronous copies into a ring of shared-memory slices");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::pipelined_configs();
  std::string config = configs.front();
  std::vector<std::string> choices = configs;
  choices.push_back("all");
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--config", &config, choices,
                 "the tiling: block BMxBNxBK, warp, thread, threads, shared-memory stages, "
                 "blocks per SM; all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const auto device = ladder::require_device();

  ladder::Report report("12_gpu_pipelined", shape.describe(), device.describe());
  ladder::GemmBench bench(shape, options);
  const std::string stage11 = ladder::warp_tiled_configs().front();
  bench.run(report, "11 warp tiled " + stage11, ladder::Role::baseline,
            [stage11](Matrix a, Matrix b, Matrix c) {
              ladder::launch_gemm_warp_tiled(stage11, a, b, c);
            });
  const auto path = ladder::pipelined_path(bench.a(), bench.b(), bench.c());
  for (const std::string& name : configs) {
    if (config != "all" && config != name) continue;
    // A named tiling that does not fit is refused by the launcher (exit 2); "all" skips it.
    if (config == "all") {
      if (const std::string reason = ladder::pipelined_unfit_reason(name); !reason.empty()) {
        std::fprintf(stderr, "skipped: %s\n", reason.c_str());
        continue;
      }
    }
    bench.run(report, name + ", " + ladder::path_name(path), ladder::Role::stage,
              [name](Matrix a, Matrix b, Matrix c) {
                ladder::launch_gemm_pipelined(name, a, b, c);
              });
  }
  bench.run_cublas(report);
  bench.run_transfers(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("12_gpu_pipelined", stage_main, argc, argv);
}
