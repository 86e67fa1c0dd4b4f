#include "common/harness/fp8_stage.hpp"

#include "common/harness/fp8_gemm_bench.hpp"
#include "common/harness/gemm_command_line.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/program.hpp"
#include "common/tensor_cores.hpp"

namespace ladder {
namespace {

int fp8_stage_main(const Fp8Stage& stage, int argc, char** argv) {
  GemmCommandLine line(stage.program, stage.summary, stage.configs, stage.config_help);
  if (!line.cli.parse(argc, argv)) return kExitOk;
  const GemmShape& shape = line.shape;
  const RunOptions& options = line.options;
  const std::string& config = line.config;
  const std::string device = require_gpu();
  require_hopper();
  require_device_memory(shape.describe() + " (" + stage.program + "'s workspace)",
                        stage.workspace_bytes());
  const std::shared_ptr<const StreamKWorkspace> workspace = stage.make_workspace();
  const StreamKWorkspace& partials = *workspace;  // the divided variants'

  Report report(stage.program, shape.describe(), device);
  run_bf16_baseline(report, shape, options, stage.baseline());
  Fp8GemmBench bench(shape, options,
                     {stage.scale, stage.quantize, stage.quantize_transposed});
  for (const std::string& name : stage.configs) {
    if (!config_selected(config, name)) continue;
    const auto launch = stage.launch;
    bench.run_on_path(
        report, name, Role::stage,
        [launch, name, &partials](ScaledFp8 a, ScaledFp8 b_t, Matrix c) {
          return launch(name, a, b_t, c, partials);
        },
        stage.path_name, stage.promotion_window(name, shape.k));
  }
  if (config_selected(config, stage.configs.front())) {
    const auto launch = stage.launch_block_scaled;
    auto per_block = [launch, &partials](const std::string& name) {
      return [launch, name, &partials](BlockScaledFp8 a, BlockScaledFp8 b_t, Matrix c) {
        return launch(name, a, b_t, c, partials);
      };
    };
    if (config == "all") {
      const auto ablation = stage.launch_block_scaled_ablation;
      bench.run_block_scaled(
          report, stage.block_scaled_ablation_label, Role::stage,
          [ablation, &partials](BlockScaledFp8 a, BlockScaledFp8 b_t, Matrix c) {
            return ablation(a, b_t, c, partials);
          },
          stage.path_name, stage.block_window);
      for (std::size_t i = 1; i < stage.block_configs.size(); ++i) {
        const std::string& name = stage.block_configs[i];
        bench.run_block_scaled(report, "per-block, " + name, Role::stage, per_block(name),
                               stage.path_name, stage.block_window);
      }
    }
    // The default last: the row print_block_scaled_share compares.
    bench.run_block_scaled(report, stage.block_scaled_label, Role::stage,
                           per_block(stage.block_configs.front()), stage.path_name,
                           stage.block_window);
    const auto from_float = stage.launch_from_float;
    bench.run_from_float(
        report, stage.from_float_label, Role::stage,
        [from_float, &partials](Matrix a, Matrix b, const Fp8Workspace& buffers, Matrix c) {
          return from_float(a, b, buffers, c, partials);
        },
        stage.path_name, stage.promotion_window(stage.configs.front(), shape.k));
  }
  bench.run_cublaslt(report);
  if (config == "all") bench.run_quantisation(report);
  const int exit_code = report.print(options.csv);
  bench.print_block_scaled_share();
  return exit_code;
}

}  // namespace

int run_fp8_stage(int argc, char** argv, const Fp8Stage& stage) {
  return run_program(
      stage.program,
      [&stage](int count, char** args) { return fp8_stage_main(stage, count, args); }, argc,
      argv);
}

}  // namespace ladder
