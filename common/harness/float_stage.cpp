#include "common/harness/float_stage.hpp"

#include <cstdio>

#include "common/errors.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"
#include "common/operand_path.hpp"

namespace ladder {
namespace {

int float_stage_main(const FloatStage& stage, int argc, char** argv) {
  Cli cli(stage.program, stage.summary);
  GemmShape shape;
  RunOptions options = gpu_run_defaults();
  std::string config;
  std::string ablate = "none";
  add_gemm_shape(cli, shape);
  add_run_options(cli, options);
  if (stage.auto_config != nullptr) {
    config = "auto";
    std::vector<std::string> choices = {"auto", "all"};
    choices.insert(choices.end(), stage.configs.begin(), stage.configs.end());
    cli.add_choice("--config", &config, choices, stage.config_help);
  } else {
    add_config_choice(cli, &config, stage.configs, stage.config_help);
  }
  if (!stage.ablations.empty()) {
    std::vector<std::string> choices = stage.ablations;
    choices.push_back("all");
    cli.add_choice("--ablate", &ablate, choices, stage.ablate_help);
  }
  if (!cli.parse(argc, argv)) return kExitOk;
  if (ablate != "none" && config != "auto") {
    throw UsageError("--ablate runs the default tiling: it does not combine with --config");
  }

  Report report(stage.program, shape.describe(), require_gpu());
  GemmBench bench(shape, options);
  const baseline::FloatGemm previous = stage.baseline();
  bench.run(report, previous.label, Role::baseline, previous.launch);
  const auto run = [&](const std::string& label, const std::string& name, auto launch) {
    bench.run_on_path(
        report, label, Role::stage,
        [name, launch](Matrix a, Matrix b, Matrix c) { return launch(name, a, b, c); },
        path_name);
  };
  if (ablate != "none") {
    for (const std::string& name : stage.ablations) {
      if (name == stage.ablations.front() || config_selected(ablate, name)) {
        run("ablation " + name, name, stage.launch_ablation);
      }
    }
  } else if (config == "auto") {
    const std::string chosen = stage.auto_config(shape.m, shape.n);
    run(chosen + " (auto)", chosen, stage.launch);
  } else {
    for (const std::string& name : stage.configs) {
      if (!config_selected(config, name)) continue;
      const std::string unfit =
          config == "all" && stage.unfit_reason != nullptr ? stage.unfit_reason(name) : "";
      if (unfit.empty()) {
        run(name, name, stage.launch);
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

int run_float_stage(int argc, char** argv, const FloatStage& stage) {
  return run_program(
      stage.program,
      [&stage](int count, char** args) { return float_stage_main(stage, count, args); }, argc,
      argv);
}

}  // namespace ladder
