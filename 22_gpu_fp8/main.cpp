// Stage 22: FP8, stage 19's persistent clusters on E4M3 operands with promotion to FP32, timed
// against stage 19's BF16 default on the same inputs and cuBLASLt FP8 in the same run; also the
// per-block scales and the whole call from FP32. Two ceilings: cuBLASLt FP8 per tensor, which
// every % column refers to, and cuBLASLt's own block scaling on the per-block operands, whose
// % of the per-block row is the line below the table (on stderr with --csv). --config all runs
// every variant and the quantisation passes against cudaMemcpy. sm_90a only: every other GPU
// exits 77.
//   cmake --preset native && cmake --build --preset native --target 22_gpu_fp8
//   build-native/bin/22_gpu_fp8 --help
#include <cstdio>
#include <string>
#include <vector>

#include "22_gpu_fp8/kernel.hpp"
#include "22_gpu_fp8/quantize.hpp"
#include "common/baselines.hpp"
#include "common/harness/fp8_gemm_bench.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/harness/verify.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixFp8;

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
  const int k = shape.k;
  {
    // The baseline: stage 19's BF16 default on the same random inputs, rounded to BF16.
    ladder::TensorGemmBench bf16(shape, options);
    const auto stage19 = ladder::baseline::clusters();
    bf16.run(report, stage19.label + " (BF16)", ladder::Role::baseline, stage19.launch);
  }
  // The bench quantises the operands with this stage's kernels (quantize.hpp).
  ladder::Fp8GemmBench bench(
      shape, options,
      {ladder::e4m3_scale_on_device, ladder::quantize_e4m3, ladder::quantize_e4m3_transposed});
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_on_path(
        report, name, ladder::Role::stage,
        [name](ladder::ScaledFp8 x, ladder::ScaledFp8 y, Matrix c) {
          return ladder::launch_gemm_fp8(name, x, y, c);
        },
        ladder::fp8_path_name, ladder::fp8_gemm_gamma(k, ladder::fp8_promotion_window(name, k)));
  }
  if (ladder::config_selected(config, configs.front())) {
    bench.run_block_scaled(
        report, "per-block scales (1x128 A, 128x128 B)", ladder::Role::stage,
        [](MatrixFp8 x, Matrix x_factors, MatrixFp8 y, Matrix y_factors, Matrix c) {
          return ladder::launch_gemm_fp8_block_scaled({x, x_factors}, {y, y_factors}, c);
        },
        ladder::fp8_path_name, ladder::fp8_gemm_gamma(k, ladder::kFp8ScaleBlock));
    // The whole call: the scales, A into E4M3 and B into B^T, then the default, all timed.
    ladder::DeviceMatrixFp8 a_work(shape.m, shape.k, ladder::fp8_stride(shape.k));
    ladder::DeviceMatrixFp8 b_t_work(shape.n, shape.k, ladder::fp8_stride(shape.k));
    ladder::DeviceFp8Scale a_scale;
    ladder::DeviceFp8Scale b_scale;
    const ladder::Fp8Workspace work{a_work.view(), b_t_work.view(), a_scale.get(), b_scale.get()};
    bench.run_from_float(
        report, "by_size from FP32 (quantisation timed too)", ladder::Role::stage,
        [&work](Matrix x, Matrix y, Matrix c) {
          return ladder::launch_gemm_fp8_from_float(x, y, work, c);
        },
        ladder::fp8_path_name,
        ladder::fp8_gemm_gamma(k, ladder::fp8_promotion_window(configs.front(), k)));
  }
  bench.run_cublaslt(report, false, ladder::fp8_gemm_gamma(k, ladder::kFp8ScaleBlock));
  bench.run_cublaslt(report, true, ladder::fp8_gemm_gamma(k, k));
  // After the per-tensor rows, which stay the ceiling of every % column (Report, the scripts).
  bench.run_cublaslt_block_scaled(report, ladder::fp8_gemm_gamma(k, ladder::kFp8ScaleBlock));
  // The quantisation's own rows (GB/s, against cudaMemcpy) with the study's --config all.
  if (config == "all") bench.run_quantisation(report);
  const int exit_code = report.print(options.csv);
  // The per-block row against its own ceiling: stdout under the table; stderr beside CSV,
  // which stays one header and its rows.
  const std::string share = bench.block_scaled_share();
  if (!share.empty()) std::fprintf(options.csv ? stderr : stdout, "%s\n", share.c_str());
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("22_gpu_fp8", stage_main, argc, argv);
}
