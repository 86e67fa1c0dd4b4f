// Stage 12: stage 11's warp tiles with the next slices copied into shared memory while the
// current one is multiplied, timed against stage 11 and cuBLAS in the same run. --config all
// runs every tiling the stage is built with: the parameter search (scripts/search.py).
//   cmake --preset native && cmake --build --preset native --target 12_gpu_pipelined
//   build-native/bin/12_gpu_pipelined --help
#include <cstdio>
#include <string>
#include <vector>

#include "12_gpu_pipelined/kernel.hpp"
#include "common/baselines.hpp"
#include "common/errors.hpp"
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
  std::string config = "auto";
  std::vector<std::string> config_choices = configs;
  config_choices.insert(config_choices.begin(), {"auto", "all"});
  const std::vector<std::string> ablations = ladder::pipelined_ablations();
  std::string ablate = "none";
  std::vector<std::string> ablate_choices = ablations;
  ablate_choices.push_back("all");
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--config", &config, config_choices,
                 "the tiling (block_warp_thread_threads_stages_blocks-per-SM); auto picks by "
                 "the wave rule, all runs every one");
  cli.add_choice("--ablate", &ablate, ablate_choices,
                 "run the default tiling with one pipeline detail turned off; all runs each");
  cli.add_check([&config, &ablate] {
    if (ablate != "none" && config != "auto") {
      throw ladder::UsageError(
          "--ablate runs the default tiling: it does not combine with --config");
    }
  });
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  ladder::Report report("12_gpu_pipelined", shape.describe(), device);
  ladder::GemmBench bench(shape, options);
  const auto stage11 = ladder::baseline::warp_tiled();
  bench.run(report, stage11.label, ladder::Role::baseline, stage11.launch);
  if (ablate != "none") {
    for (const std::string& name : ablations) {
      if (ablate != "all" && ablate != name && name != "none") continue;
      bench.run_on_path(
          report, "ablation " + name, ladder::Role::stage,
          [name](Matrix a, Matrix b, Matrix c) {
            return ladder::launch_gemm_pipelined_ablation(name, a, b, c);
          },
          ladder::path_name);
    }
  } else if (config == "auto") {
    const std::string chosen = ladder::pipelined_config_for(shape.m, shape.n);
    bench.run_on_path(
        report, chosen + " (auto)", ladder::Role::stage,
        [chosen](Matrix a, Matrix b, Matrix c) {
          return ladder::launch_gemm_pipelined(chosen, a, b, c);
        },
        ladder::path_name);
  } else {
    for (const std::string& name : configs) {
      if (config != "all" && config != name) continue;
      // A named tiling that does not fit is refused by the launcher (exit 2); "all" skips it.
      if (config == "all") {
        if (const std::string reason = ladder::pipelined_unfit_reason(name); !reason.empty()) {
          std::fprintf(stderr, "skipped: %s\n", reason.c_str());
          continue;
        }
      }
      bench.run_on_path(
          report, name, ladder::Role::stage,
          [name](Matrix a, Matrix b, Matrix c) {
            return ladder::launch_gemm_pipelined(name, a, b, c);
          },
          ladder::path_name);
    }
  }
  bench.run_cublas(report);
  bench.run_transfers(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("12_gpu_pipelined", stage_main, argc, argv);
}
