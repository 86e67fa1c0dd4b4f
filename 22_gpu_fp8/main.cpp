// Stage 22: FP8, stage 19's persistent clusters on E4M3 operands with promotion to FP32, timed
// against stage 19's BF16 default on the same inputs and cuBLASLt FP8 in the same run; also the
// per-block scales and the whole call from FP32. Two ceilings: cuBLASLt FP8 per tensor, which
// every % column refers to, and cuBLASLt's own block scaling on the per-block operands, whose
// % of the per-block row is the line below the table (on stderr with --csv). --config all runs
// every variant and the quantisation passes against cudaMemcpy. sm_90a only: every other GPU
// exits 77.
//   cmake --preset native && cmake --build --preset native --target 22_gpu_fp8
//   build-native/bin/22_gpu_fp8 --help
#include <string>
#include <vector>

#include "22_gpu_fp8/kernel.hpp"
#include "22_gpu_fp8/quantize.hpp"
#include "common/baselines.hpp"
#include "common/harness/fp8_gemm_bench.hpp"
#include "common/harness/program.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::ScaledFp8;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("22_gpu_fp8",
                  "FP8 (E4M3) operands with per-tensor or per-block scales, partial sums "
                  "promoted to FP32 registers, against cuBLASLt FP8 with the same scales "
                  "(per tensor; 1x128 of A and 128x128 of B)");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::fp8_configs();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(cli, &config, configs,
                            "the variant: the default (first), another tiling, or promotion "
                            "every 2 or 4 slices or never; all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("22_gpu_fp8", shape.describe(), device);
  // The baseline: stage 19's BF16 default on the same random inputs, rounded to BF16.
  ladder::run_bf16_baseline(report, shape, options, ladder::baseline::clusters());
  // The bench quantises the operands with this stage's kernels (quantize.hpp).
  ladder::Fp8GemmBench bench(
      shape, options,
      {ladder::e4m3_scale_on_device, ladder::quantize_e4m3, ladder::quantize_e4m3_transposed});
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_on_path(
        report, name, ladder::Role::stage,
        [name](ScaledFp8 a, ScaledFp8 b_t, Matrix c) {
          return ladder::launch_gemm_fp8(name, a, b_t, c);
        },
        ladder::fp8_path_name, ladder::fp8_promotion_window(name, shape.k));
  }
  if (ladder::config_selected(config, configs.front())) {
    // Promotion at every block of K, where its factors apply. With --config all first its
    // ablation: the factors loaded at each promotion instead of a slice ahead.
    const auto per_block = [](ladder::FactorLoads loads) {
      return [loads](ladder::BlockScaledFp8 a, ladder::BlockScaledFp8 b_t, Matrix c) {
        return ladder::launch_gemm_fp8_block_scaled(a, b_t, c, loads);
      };
    };
    if (config == "all") {
      bench.run_block_scaled(report, "per-block, factors loaded at the promotion",
                             ladder::Role::stage, per_block(ladder::FactorLoads::at_promotion),
                             ladder::fp8_path_name, ladder::kFp8ScaleBlock);
    }
    bench.run_block_scaled(report, "per-block scales (1x128 A, 128x128 B)", ladder::Role::stage,
                           per_block(ladder::FactorLoads::slice_ahead), ladder::fp8_path_name,
                           ladder::kFp8ScaleBlock);
    // The whole call: the scales, A into E4M3 and B into B^T, then the default, all timed.
    bench.run_from_float(report, "by_size from FP32 (quantisation timed too)",
                         ladder::Role::stage, ladder::launch_gemm_fp8_from_float,
                         ladder::fp8_path_name,
                         ladder::fp8_promotion_window(configs.front(), shape.k));
  }
  bench.run_cublaslt(report);
  // The quantisation's own rows (GB/s, against cudaMemcpy) with the study's --config all.
  if (config == "all") bench.run_quantisation(report);
  const int exit_code = report.print(options.csv);
  bench.print_block_scaled_share();
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("22_gpu_fp8", stage_main, argc, argv);
}
