// Stage 20: TF32 for FP32 users, the persistent kernel on C^T = B^T A^T with B's slices read
// into registers, timed against stage 12 (FP32 FMA) and cuBLAS TF32 in the same run. --config
// all adds the swap's ablation: the kernel on A and B^T, with B^T written by stage 08's kernel
// inside the timed call. sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 20_gpu_tf32
//   build-native/bin/20_gpu_tf32 --help
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "20_gpu_tf32/kernel.hpp"
#include "common/baselines.hpp"
#include "common/device_matrix.hpp"
#include "common/errors.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/program.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;

// Stage 08's grid covers B's k rows in tiles of 32, at most 65535 of them: the largest K whose
// B the transposing variants can take. The program takes no larger K for those variants.
constexpr int kMaxTransposedK = 65535 * 32;

// Whether --config runs the swap's ablation, which needs B^T.
bool runs_ablation(const std::string& config) {
  const std::vector<std::string> names = ladder::tf32_transposing_configs();
  return config == "all" || std::find(names.begin(), names.end(), config) != names.end();
}

// The transposing variants with B^T written by stage 08's kernel inside the timed call; then the
// transposing default's product alone, from the B^T written (what the transpose costs, read off
// against that variant's row).
void run_ablation(ladder::GemmBench& bench, const ladder::GemmShape& shape,
                  const std::string& config, ladder::Report& report) {
  const int b_t_stride = ladder::transposed_b_stride(shape.k);
  ladder::require_device_memory(shape.describe() + " (B^T workspace)",
                                sizeof(float) * static_cast<std::uint64_t>(shape.n) * b_t_stride);
  ladder::DeviceMatrix b_t(shape.n, shape.k, b_t_stride);  // shape checked by the options
  const ladder::baseline::Transpose transpose = ladder::baseline::transpose_padded();
  const std::vector<std::string> names = ladder::tf32_transposing_configs();
  for (const std::string& name : names) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_tf32_on_path(
        report, name + ", B^T by stage 08", ladder::Role::stage,
        [name, transpose, &b_t](Matrix a, Matrix b, Matrix c) {
          transpose(b, b_t.view(), 32, 8);
          return ladder::launch_gemm_tf32_transposed(name, a, b_t.view(), c);
        },
        ladder::path_name);
  }
  const std::string name = names.front();
  bench.run_tf32_on_path(
      report, name + ", B^T given (transpose not timed)", ladder::Role::stage,
      [name, &b_t](Matrix a, Matrix, Matrix c) {
        return ladder::launch_gemm_tf32_transposed(name, a, b_t.view(), c);
      },
      ladder::path_name);
}

int stage_main(int argc, char** argv) {
  ladder::Cli cli("20_gpu_tf32",
                  "FP32 operands read as TF32: C^T = B^T A^T, B's slices read into registers "
                  "as given");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::vector<std::string> configs = ladder::tf32_configs();
  const std::vector<std::string> transposing = ladder::tf32_transposing_configs();
  configs.insert(configs.end(), transposing.begin(), transposing.end());
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, configs,
      "the variant: the default (first), another tiling, or the swap's ablation (transposed_*, "
      "from B^T); all runs every one");
  cli.add_check([&] {
    if (!runs_ablation(config)) return;
    // The ablation's B^T: stage 08's kernel must cover K, and B^T (n x k, rows padded to 32
    // floats) must be a valid matrix.
    if (shape.k > kMaxTransposedK) {
      throw ladder::UsageError("the transposing variants take K up to " +
                               std::to_string(kMaxTransposedK) +
                               ", the rows of B that stage 08's transpose covers in one grid");
    }
    try {
      ladder::check_matrix_shape(shape.n, shape.k, ladder::transposed_b_stride(shape.k));
    } catch (const ladder::UsageError& error) {
      throw ladder::UsageError(std::string("the transposing variants need B^T (n x k, rows "
                                           "padded to 32 floats): ") +
                               error.what());
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
  if (runs_ablation(config)) run_ablation(bench, shape, config, report);
  bench.run_cublas_tf32(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("20_gpu_tf32", stage_main, argc, argv);
}
