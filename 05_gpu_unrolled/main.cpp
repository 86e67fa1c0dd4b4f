// Stage 05: stage 04's square-tile kernel with the inner loop not unrolled, unrolled by 4
// by hand (gemm-opt), fully unrolled, and left to the compiler, against stage 04 and cuBLAS.
//   cmake --preset native && cmake --build --preset native --target 05_gpu_unrolled
//   build-native/bin/05_gpu_unrolled --help
#include <string>

#include "05_gpu_unrolled/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

using ladder::Matrix;
using ladder::Unroll;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("05_gpu_unrolled",
                  "stage 04's tiled product with its inner loop unrolled in four ways");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::string tile = "16";
  std::string unroll = "all";
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--tile", &tile, {"8", "16", "32"}, "tile side; blocks are tile x tile");
  cli.add_choice("--unroll", &unroll, {"none", "x4", "full", "default", "all"},
                 "how the inner product loop is unrolled");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  const int side = std::stoi(tile);
  const std::string of_tile = " (tile " + tile + ")";
  ladder::Report report("05_gpu_unrolled", shape.describe(), device);
  ladder::GemmBench bench(shape, options);
  const auto stage04 = ladder::baseline::shared_tiled(side);
  bench.run(report, stage04.label, ladder::Role::baseline, stage04.launch);
  struct Variant {
    const char* option;
    const char* name;
    Unroll unroll;
  };
  const Variant variants[] = {{"none", "unroll 1", Unroll::none},
                              {"x4", "manual x4", Unroll::manual4},
                              {"full", "unroll full", Unroll::full},
                              {"default", "compiler default", Unroll::compiler}};
  for (const Variant& variant : variants) {
    if (unroll != "all" && unroll != variant.option) continue;
    bench.run(report, variant.name + of_tile, ladder::Role::stage,
              [which = variant.unroll, side](Matrix a, Matrix b, Matrix c) {
                ladder::launch_gemm_unrolled(which, side, a, b, c);
              });
  }
  bench.run_cublas(report);
  bench.run_transfers(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("05_gpu_unrolled", stage_main, argc, argv);
}
