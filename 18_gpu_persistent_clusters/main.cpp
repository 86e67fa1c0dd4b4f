// Stage 18: persistent blocks walking the output tiles, in clusters of two that share each
// slice of B through TMA multicast, timed against stage 17 and cuBLAS with BF16 operands in the
// same run. --config all runs every variant the stage is built with (the default, its
// ablations, other tilings): the parameter search (scripts/search.py). --precision tf32 runs
// the TF32 variant for FP32 users instead, against stage 12 (FP32 FMA) and cuBLAS TF32.
// sm_90a only: every other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 18_gpu_persistent_clusters
//   build-native/bin/18_gpu_persistent_clusters --help
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/hopper/launch.hpp"  // tma_path_name
#include "18_gpu_persistent_clusters/kernel.hpp"
#include "common/baselines.hpp"
#include "common/device_matrix.hpp"
#include "common/errors.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

// Stage 08's grid covers B's k rows in tiles of 32, at most 65535 of them: the largest K whose
// B the TF32 ablation can transpose. The program takes no larger K for those variants.
constexpr int kTf32MaxK = 65535 * 32;

int run_bf16(const ladder::GemmShape& shape, const ladder::RunOptions& options,
             const std::string& config, ladder::Report& report) {
  ladder::TensorGemmBench bench(shape, options);
  const auto stage17 = ladder::baseline::warp_specialized();
  bench.run(report, stage17.label, ladder::Role::baseline, stage17.launch);
  for (const std::string& name : ladder::persistent_configs()) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_on_path(
        report, name, ladder::Role::stage,
        [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_persistent(name, a, b, c);
        },
        ladder::tma_path_name);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

// TF32: the variants on B as given; the transposing ones with B^T written by stage 08's kernel
// inside the timed call (the swap's ablation); then, where b_t holds B^T, the transposing
// default's product alone (what the transpose costs, read off against that variant's row).
int run_tf32(const ladder::GemmShape& shape, const ladder::RunOptions& options,
             const std::string& config, ladder::Report& report) {
  ladder::GemmBench bench(shape, options, ladder::GemmInputs::tf32);
  const auto stage12 = ladder::baseline::pipelined_fp32();
  bench.run(report, stage12.label, ladder::Role::baseline, stage12.launch);
  for (const std::string& name : ladder::persistent_tf32_configs()) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_tf32_on_path(
        report, "TF32 " + name + ", B as given", ladder::Role::stage,
        [name](Matrix a, Matrix b, Matrix c) {
          return ladder::launch_gemm_persistent_tf32(name, a, b, c);
        },
        ladder::path_name);
  }
  const std::vector<std::string> transposing = ladder::persistent_tf32_transposing_configs();
  if (std::none_of(transposing.begin(), transposing.end(), [&](const std::string& name) {
        return ladder::config_selected(config, name);
      })) {
    bench.run_cublas_tf32(report);
    return report.print(options.csv);
  }
  const int b_t_stride = ladder::transposed_b_stride(shape.k);
  ladder::require_device_memory(shape.describe() + " (B^T workspace)",
                                sizeof(float) * static_cast<std::uint64_t>(shape.n) * b_t_stride);
  ladder::DeviceMatrix b_t(shape.n, shape.k, b_t_stride);  // shape checked by the options
  const ladder::baseline::Transpose transpose = ladder::baseline::transpose_padded();
  for (const std::string& name : transposing) {
    if (!ladder::config_selected(config, name)) continue;
    bench.run_tf32_on_path(
        report, "TF32 " + name + ", B^T by stage 08", ladder::Role::stage,
        [name, transpose, &b_t](Matrix a, Matrix b, Matrix c) {
          transpose(b, b_t.view(), 32, 8);
          return ladder::launch_gemm_persistent_tf32_transposed(name, a, b_t.view(), c);
        },
        ladder::path_name);
  }
  // b_t holds B^T now: the transposing default's product alone, from it.
  const std::string name = transposing.front();
  bench.run_tf32_on_path(
      report, "TF32 " + name + ", B^T given (transpose not timed)", ladder::Role::stage,
      [name, &b_t](Matrix a, Matrix, Matrix c) {
        return ladder::launch_gemm_persistent_tf32_transposed(name, a, b_t.view(), c);
      },
      ladder::path_name);
  bench.run_cublas_tf32(report);
  return report.print(options.csv);
}

int stage_main(int argc, char** argv) {
  ladder::Cli cli("18_gpu_persistent_clusters",
                  "persistent blocks over the output tiles, clusters of two sharing B through "
                  "TMA multicast");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  const std::vector<std::string> configs = ladder::persistent_configs();
  // TF32: the variants on B as given, then the transposing ones (the swap's ablation).
  std::vector<std::string> tf32_configs = ladder::persistent_tf32_configs();
  const std::vector<std::string> transposing = ladder::persistent_tf32_transposing_configs();
  tf32_configs.insert(tf32_configs.end(), transposing.begin(), transposing.end());
  std::string config;
  std::string precision = "bf16";
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  // One --config for both precisions (both defaults are by_size); each check below keeps
  // its precision's names.
  std::vector<std::string> all_names = configs;
  for (const std::string& name : tf32_configs) {
    if (std::find(configs.begin(), configs.end(), name) == configs.end()) {
      all_names.push_back(name);
    }
  }
  ladder::add_config_choice(
      cli, &config, all_names,
      "the variant: the default (first), one of its ideas turned off, or another "
      "tiling; all runs every one. --precision tf32 takes its own (listed after the BF16 "
      "ones)");
  cli.add_choice("--precision", &precision, {"bf16", "tf32"},
                 "bf16: BF16 operands (the stage); tf32: FP32 operands read as TF32, B "
                 "read into registers as given (C^T = B^T A^T)");
  cli.add_check([&] {
    auto named_in = [&](const std::vector<std::string>& list) {
      return config == "all" || std::find(list.begin(), list.end(), config) != list.end();
    };
    if (precision != "tf32") {
      if (!named_in(configs)) {
        throw ladder::UsageError("--config " + config + " is a TF32 variant: add --precision tf32");
      }
      return;
    }
    if (!named_in(tf32_configs)) {
      std::string names;
      for (const std::string& name : tf32_configs) names += " " + name;
      throw ladder::UsageError("--config " + config + " has no TF32 version; --precision tf32 "
                               "takes all or one of:" + names);
    }
    if (!named_in(transposing)) return;
    // The ablation's B^T: stage 08's kernel must cover K, and B^T (n x k, rows padded to 32
    // floats) must be a valid matrix.
    if (shape.k > kTf32MaxK) {
      throw ladder::UsageError("the transposing TF32 variants take K up to " +
                               std::to_string(kTf32MaxK) +
                               ", the rows of B that stage 08's transpose covers in one grid");
    }
    try {
      ladder::check_matrix_shape(shape.n, shape.k, ladder::transposed_b_stride(shape.k));
    } catch (const ladder::UsageError& error) {
      throw ladder::UsageError(std::string("the transposing TF32 variants need B^T (n x k, rows "
                                           "padded to 32 floats): ") + error.what());
    }
  });
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("18_gpu_persistent_clusters", shape.describe(), device);
  if (precision == "tf32") return run_tf32(shape, options, config, report);
  return run_bf16(shape, options, config, report);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("18_gpu_persistent_clusters", stage_main, argc, argv);
}
