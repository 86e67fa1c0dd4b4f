// Stage 10: stage 09's 2D register tiles with 128-bit global loads and stores and A stored
// transposed in shared memory, timed against stage 09's 2D kernel and cuBLAS in the same run.
//   cmake --preset native && cmake --build --preset native --target 10_gpu_vectorized
//   build-native/bin/10_gpu_vectorized --help
#include <string>

#include "10_gpu_vectorized/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

using ladder::Matrix;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("10_gpu_vectorized",
                  "register tiles with 128-bit global accesses and a transposed slice of A");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  std::string depth = "16";
  cli.add_choice("--bk", &depth, {"16", "8", "both"},
                 "slice depth: 16, or stage 09's 8 (the 128-bit accesses alone); both runs each");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  ladder::Report report("10_gpu_vectorized", shape.describe(), device);
  ladder::GemmBench bench(shape, options);
  const auto stage09 = ladder::baseline::register_tiled();
  bench.run(report, stage09.label, ladder::Role::baseline, stage09.launch);
  // The launcher picks the path from the operands' alignment (a stride that is not a
  // multiple of 4 floats, as at 4095^3, takes the scalar one); the row says which.
  for (const int bk : {8, 16}) {
    if (depth != "both" && depth != std::to_string(bk)) continue;
    bench.run_on_path(
        report, "128x128x" + std::to_string(bk), ladder::Role::stage,
        [bk](Matrix a, Matrix b, Matrix c) { return ladder::launch_gemm_vectorized(a, b, c, bk); },
        ladder::path_name);
  }
  bench.run_cublas(report);
  bench.run_transfers(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("10_gpu_vectorized", stage_main, argc, argv);
}
