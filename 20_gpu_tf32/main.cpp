// Stage 20: TF32 for FP32 users, the persistent kernel on C^T = B^T A^T with B's slices read
// into registers, timed against stage 12 (FP32 FMA) and cuBLAS TF32 in the same run. --config
// all adds the swap's ablation: the kernel on A and B^T, with B^T written by stage 08's kernel
// inside the timed call. sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 20_gpu_tf32
//   build-native/bin/20_gpu_tf32 --help
#include <algorithm>
#include <string>
#include <vector>

#include "20_gpu_tf32/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"
#include "common/harness/transposed_b.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;

// The ablation's variant `name`, on A and B^T.
ladder::GemmPathLaunch on_b_t(const std::string& name) {
  return [name](Matrix a, Matrix b_t, Matrix c) {
    return ladder::launch_gemm_tf32_transposed(name, a, b_t, c);
  };
}

int stage_main(int argc, char** argv) {
  ladder::Cli cli("20_gpu_tf32",
                  "FP32 operands read as TF32: C^T = B^T A^T, B's slices read into registers "
                  "as given");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> transposing = ladder::tf32_transposing_configs();
  std::vector<std::string> configs = ladder::tf32_configs();
  configs.insert(configs.end(), transposing.begin(), transposing.end());
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, configs,
      "the variant: the default (first), another tiling, or the swap's ablation (transposed_*, "
      "from B^T); all runs every one");
  const auto runs_ablation = [&] {
    return std::any_of(transposing.begin(), transposing.end(), [&](const std::string& name) {
      return ladder::config_selected(config, name);
    });
  };
  cli.add_check([&] {
    if (runs_ablation()) {
      ladder::TransposedB::check(shape, ladder::transposed_b_stride(shape.k));
    }
  });
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("20_gpu_tf32", shape.describe(), device);
  ladder::GemmBench bench(shape, options, ladder::GemmInputs::tf32);
  const auto stage12 = ladder::baseline::pipelined_fp32();
  bench.run(report, stage12.label, ladder::Role::baseline, stage12.launch);
  for (const std::string& name : ladder::tf32_configs()) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_tf32_on_path(
        report, name + ", B as given", ladder::Role::stage,
        [name](Matrix a, Matrix b, Matrix c) { return ladder::launch_gemm_tf32(name, a, b, c); },
        ladder::path_name);
  }
  if (runs_ablation()) {
    // Each variant with B^T written by stage 08's kernel inside the timed call; then the
    // default's product alone, on the B^T written: what the transpose costs, read off against
    // the default's row.
    ladder::TransposedB b_t(shape, ladder::transposed_b_stride(shape.k));
    for (const std::string& name : transposing) {
      if (!ladder::config_selected(config, name)) continue;
      b_t.run(bench, report, name + ", B^T by stage 08", on_b_t(name),
              ladder::baseline::transpose_padded());
    }
    const std::string& name = transposing.front();
    b_t.run(bench, report, name + ", B^T given (transpose not timed)", on_b_t(name), nullptr);
  }
  bench.run_cublas_tf32(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("20_gpu_tf32", stage_main, argc, argv);
}
