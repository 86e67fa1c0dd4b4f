// Stage 09: register tiling, each thread a column (1D) or a block (2D) of C in registers,
// timed against Part 1's best kernel (stage 04, tile 32) and cuBLAS in the same run.
//   cmake --preset native && cmake --build --preset native --target 09_gpu_register_tiled
//   build-native/bin/09_gpu_register_tiled --help
#include <string>

#include "09_gpu_register_tiled/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

using ladder::Matrix;
using ladder::RegisterTiling;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("09_gpu_register_tiled",
                  "matrix product with register tiles: several elements of C per thread");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::string variant = "both";
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--variant", &variant, {"1d", "2d", "both"},
                 "a column of 16 elements per thread (1d), a block of 8x8 (2d), or both");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  ladder::Report report("09_gpu_register_tiled", shape.describe(), device);
  ladder::GemmBench bench(shape, options);
  const auto stage04 = ladder::baseline::shared_tiled(32);
  bench.run(report, stage04.label, ladder::Role::baseline, stage04.launch);
  if (variant != "2d") {
    bench.run(report, "1D: 64x64 block, 16x1 per thread", ladder::Role::stage,
              [](Matrix a, Matrix b, Matrix c) {
                ladder::launch_gemm_register_tiled(RegisterTiling::one_d, a, b, c);
              });
  }
  if (variant != "1d") {
    bench.run(report, "2D: 128x128 block, 8x8 per thread", ladder::Role::stage,
              [](Matrix a, Matrix b, Matrix c) {
                ladder::launch_gemm_register_tiled(RegisterTiling::two_d, a, b, c);
              });
  }
  bench.run_cublas(report);
  bench.run_transfers(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("09_gpu_register_tiled", stage_main, argc, argv);
}
