// Stage 12: stage 11's warp tiles fed by a ring of asynchronous copies, timed against stage 11
// and cuBLAS in the same run; --config all runs every tiling: the search (scripts/search.py).
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

int stage_main(int argc, char** argv) {
  ladder::Cli cli("12_gpu_pipelined",
                  "warp tiles fed by asynchronous copies into a ring of shared-memory slices");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::string config = "auto";
  std::string ablate = "none";
  std::vector<std::string> config_choices = ladder::pipelined_configs();
  config_choices.insert(config_choices.begin(), {"auto", "all"});
  std::vector<std::string> ablate_choices = ladder::pipelined_ablations();
  ablate_choices.push_back("all");
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--config", &config, config_choices,
                 "the tiling (block_warp_thread_threads_stages_blocks-per-SM); auto picks by "
                 "the wave rule, all runs every one");
  cli.add_choice("--ablate", &ablate, ablate_choices,
                 "run the default tiling with one pipeline detail turned off; all runs each");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  if (ablate != "none" && config != "auto") {
    throw ladder::UsageError("--ablate runs the default tiling: it does not combine with --config");
  }

  ladder::Report report("12_gpu_pipelined", shape.describe(), ladder::require_gpu());
  ladder::GemmBench bench(shape, options);
  const auto stage11 = ladder::baseline::warp_tiled();
  bench.run(report, stage11.label, ladder::Role::baseline, stage11.launch);
  const auto run = [&](const std::string& label, const std::string& name, auto launch) {
    bench.run_on_path(
        report, label, ladder::Role::stage,
        [name, launch](auto a, auto b, auto c) { return launch(name, a, b, c); },
        ladder::path_name);
  };
  if (ablate != "none") {
    for (const std::string& name : ladder::pipelined_ablations()) {
      if (name == "none" || ladder::config_selected(ablate, name)) {  // "none": to compare with
        run("ablation " + name, name, ladder::launch_gemm_pipelined_ablation);
      }
    }
  } else if (config == "auto") {
    const std::string chosen = ladder::pipelined_config_for(shape.m, shape.n);
    run(chosen + " (auto)", chosen, ladder::launch_gemm_pipelined);
  } else {
    for (const std::string& name : ladder::pipelined_configs()) {
      if (!ladder::config_selected(config, name)) continue;
      // A named tiling that does not fit is refused by the launcher (exit 2); "all" skips it.
      const std::string unfit = config == "all" ? ladder::pipelined_unfit_reason(name) : "";
      if (unfit.empty()) {
        run(name, name, ladder::launch_gemm_pipelined);
      } else {
        std::fprintf(stderr, "skipped: %s\n", unfit.c_str());
      }
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
