#include "common/harness/tf32_stage.hpp"

#include <algorithm>

#include "common/harness/gemm_bench.hpp"
#include "common/harness/gemm_command_line.hpp"
#include "common/harness/program.hpp"
#include "common/harness/transposed_b.hpp"
#include "common/operand_path.hpp"
#include "common/tensor_cores.hpp"

namespace ladder {
namespace {

int tf32_stage_main(const Tf32Stage& stage, int argc, char** argv) {
  std::vector<std::string> configs = stage.configs;
  configs.insert(configs.end(), stage.ablations.begin(), stage.ablations.end());
  GemmCommandLine line(stage.program, stage.summary, configs, stage.config_help);
  const GemmShape& shape = line.shape;
  const RunOptions& options = line.options;
  const std::string& config = line.config;
  const auto runs_ablation = [&] {
    return std::any_of(stage.ablations.begin(), stage.ablations.end(),
                       [&](const std::string& name) { return config_selected(config, name); });
  };
  line.cli.add_check([&] {
    if (runs_ablation()) TransposedB::check(shape, stage.b_t_stride(shape.k));
  });
  if (!line.cli.parse(argc, argv)) return kExitOk;
  const std::string device = require_gpu();
  require_hopper();

  Report report(stage.program, shape.describe(), device);
  GemmBench bench(shape, options, GemmInputs::tf32);
  const baseline::FloatGemm previous = stage.baseline();
  bench.run(report, previous.label, Role::baseline, previous.launch);
  for (const std::string& name : stage.configs) {
    if (!config_selected(config, name)) continue;
    const NamedFloatLaunch launch = stage.launch;
    bench.run_tf32_on_path(
        report, name + ", B as given", Role::stage,
        [launch, name](Matrix a, Matrix b, Matrix c) { return launch(name, a, b, c); }, path_name);
  }
  if (runs_ablation()) {
    const NamedFloatLaunch launch = stage.launch_ablation;
    const auto on_b_t = [launch](const std::string& name) -> GemmPathLaunch {
      return [launch, name](Matrix a, Matrix b_t, Matrix c) { return launch(name, a, b_t, c); };
    };
    TransposedB b_t(shape, stage.b_t_stride(shape.k));
    for (const std::string& name : stage.ablations) {
      if (!config_selected(config, name)) continue;
      b_t.run(bench, report, name + ", B^T by " + stage.transpose_label, on_b_t(name),
              stage.transpose());
    }
    const std::string& name = stage.ablations.front();
    b_t.run(bench, report, name + ", B^T given (transpose not timed)", on_b_t(name), nullptr);
  }
  bench.run_cublas_tf32(report);
  return report.print(options.csv);
}

}  // namespace

int run_tf32_stage(int argc, char** argv, const Tf32Stage& stage) {
  return run_program(
      stage.program,
      [&stage](int count, char** args) { return tf32_stage_main(stage, count, args); }, argc,
      argv);
}

}  // namespace ladder
