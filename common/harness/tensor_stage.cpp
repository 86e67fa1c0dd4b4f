#include "common/harness/tensor_stage.hpp"

#include <cstdio>

#include "common/harness/aligned_copies.hpp"
#include "common/harness/divided_stage.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/gemm_command_line.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace ladder {
namespace {

int tensor_stage_main(const TensorStage& stage, int argc, char** argv) {
  GemmCommandLine line(stage.program, stage.summary, stage.configs, stage.config_help);
  if (!line.cli.parse(argc, argv)) return kExitOk;
  const GemmShape& shape = line.shape;
  const RunOptions& options = line.options;
  const std::string& config = line.config;
  const std::string device = require_gpu();
  if (stage.gpu == TensorGpu::sm90a) {
    require_hopper();
  } else {
    require_bf16_tensor_cores();
  }

  Report report(stage.program, shape.describe(), device);
  TensorGemmBench bench(shape, options);
  NamedBf16Launch launch = stage.launch;
  const DividedStage none;
  const DividedStage& divided = stage.divided != nullptr ? *stage.divided : none;
  if (divided.launch_with_workspace) {
    require_device_memory(shape.describe() + " (" + stage.program + "'s workspace)",
                          divided.workspace_bytes());
    launch = divided.launch_with_workspace();
  }
  const baseline::Bf16Gemm previous = stage.baseline();
  bench.run(report, previous.label, Role::baseline, previous.launch);
  OperandPath path = OperandPath::element;
  for (const std::string& name : stage.configs) {
    if (!config_selected(config, name)) continue;
    if (config == "all" && stage.unfit_reason != nullptr) {
      if (const std::string reason = stage.unfit_reason(name); !reason.empty()) {
        std::fprintf(stderr, "skipped: %s\n", reason.c_str());
        continue;
      }
    }
    path = bench.run_on_path(
        report, stage.label + name, Role::stage,
        [&launch, name](MatrixBf16 a, MatrixBf16 b, Matrix c) { return launch(name, a, b, c); },
        stage.path_name);
  }
  // --config all is the stage's evidence (its rows compare variants), where a copy is no choice.
  if (divided.aligned_copies && config == stage.configs.front() && path == OperandPath::tma) {
    run_with_aligned_copies(bench, shape, report, stage.label + config,
                            [&](MatrixBf16 a, MatrixBf16 b, Matrix c) { launch(config, a, b, c); });
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int run_tensor_stage(int argc, char** argv, const TensorStage& stage) {
  return run_program(
      stage.program,
      [&stage](int count, char** args) { return tensor_stage_main(stage, count, args); }, argc,
      argv);
}

}  // namespace ladder
