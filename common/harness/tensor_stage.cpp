#include "common/harness/tensor_stage.hpp"

#include <cstdio>

#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace ladder {
namespace {

int tensor_stage_main(const TensorStage& stage, int argc, char** argv) {
  Cli cli(stage.program, stage.summary);
  GemmShape shape;
  RunOptions options = gpu_run_defaults();
  std::string config;
  add_gemm_shape(cli, shape);
  add_run_options(cli, options);
  add_config_choice(cli, &config, stage.configs, stage.config_help);
  if (!cli.parse(argc, argv)) return kExitOk;
  const std::string device = require_gpu();
  if (stage.gpu == TensorGpu::sm90a) {
    require_hopper();
  } else {
    require_bf16_tensor_cores();
  }

  Report report(stage.program, shape.describe(), device);
  TensorGemmBench bench(shape, options);
  const baseline::Bf16Gemm previous = stage.baseline();
  bench.run(report, previous.label, Role::baseline, previous.launch);
  for (const std::string& name : stage.configs) {
    if (!config_selected(config, name)) continue;
    if (config == "all" && stage.unfit_reason != nullptr) {
      if (const std::string reason = stage.unfit_reason(name); !reason.empty()) {
        std::fprintf(stderr, "skipped: %s\n", reason.c_str());
        continue;
      }
    }
    const auto launch = stage.launch;
    bench.run_on_path(
        report, stage.label + name, Role::stage,
        [launch, name](MatrixBf16 a, MatrixBf16 b, Matrix c) { return launch(name, a, b, c); },
        stage.path_name);
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
