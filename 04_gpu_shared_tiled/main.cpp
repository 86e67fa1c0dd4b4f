// Stage 04: tiles of A and B staged in shared memory, square tiles against shared-storage's wide
// slabs, timed against stage 03's coalesced kernel and cuBLAS in the same run.
//   cmake --preset native && cmake --build --preset native --target 04_gpu_shared_tiled
//   build-native/bin/04_gpu_shared_tiled --help
#include <cstdio>
#include <string>
#include <vector>

#include "04_gpu_shared_tiled/kernel.hpp"
#include "common/baselines.hpp"
#include "common/errors.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

using ladder::Matrix;

// --drop-sync: only the racy kernel, on a problem small enough for compute-sanitizer.
int run_racy(ladder::GemmBench& bench, ladder::Report& report, const std::vector<int>& tiles,
             const std::string& drop, bool csv) {
  const auto dropped =
      drop == "load" ? ladder::DroppedSync::after_load : ladder::DroppedSync::after_compute;
  for (const int tile : tiles) {
    bench.run(report, "tile " + std::to_string(tile) + " no sync after " + drop,
              ladder::Role::stage, [dropped, tile](Matrix a, Matrix b, Matrix c) {
                ladder::launch_gemm_tiled_racy(dropped, tile, a, b, c);
              });
  }
  const int status = report.print(csv);
  std::fprintf(stderr,
               "note: --drop-sync %s removes a __syncthreads(), a data race whether or not "
               "this run's result came out wrong; run it under compute-sanitizer --tool "
               "racecheck to see the hazard reported.\n",
               drop.c_str());
  return status;
}

int stage_main(int argc, char** argv) {
  ladder::Cli cli("04_gpu_shared_tiled",
                  "matrix product in shared-memory tiles, square tiles against wide slabs");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::string tile = "16";
  std::string policy = "both";
  std::string drop = "none";
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--tile", &tile, {"8", "16", "32", "all"}, "tile side; blocks are tile x tile");
  cli.add_choice("--policy", &policy, {"square", "wide", "both"},
                 "square tiles, or shared-storage's slabs four tiles long");
  cli.add_choice("--drop-sync", &drop, {"none", "load", "compute"},
                 "drop a __syncthreads() (a race on purpose)");
  cli.add_check([&] {
    if (drop != "none" && policy == "wide") {
      throw ladder::UsageError("--drop-sync applies to the square kernel, not --policy wide");
    }
  });
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  const std::vector<int> tiles =
      tile == "all" ? std::vector<int>{8, 16, 32} : std::vector<int>{std::stoi(tile)};
  ladder::Report report("04_gpu_shared_tiled", shape.describe(), device);
  ladder::GemmBench bench(shape, options);
  if (drop != "none") return run_racy(bench, report, tiles, drop, options.csv);

  // Stage 03's coalesced kernel with the block this stage's tile would use (03 has no 8).
  const int block = tile == "32" ? 32 : 16;
  const auto stage03 = ladder::baseline::gpu_naive(block);
  bench.run(report, stage03.label, ladder::Role::baseline, stage03.launch);
  for (const int side : tiles) {
    const std::string n = std::to_string(side);
    if (policy != "wide") {
      bench.run(report, "square tile " + n, ladder::Role::stage,
                [side](Matrix a, Matrix b, Matrix c) {
                  ladder::launch_gemm_tiled(ladder::TilePolicy::square, side, a, b, c);
                });
    }
    if (policy != "square") {
      bench.run(report, "wide slab " + n + "x" + std::to_string(4 * side), ladder::Role::stage,
                [side](Matrix a, Matrix b, Matrix c) {
                  ladder::launch_gemm_tiled(ladder::TilePolicy::wide, side, a, b, c);
                });
    }
  }
  bench.run_cublas(report);
  bench.run_transfers(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("04_gpu_shared_tiled", stage_main, argc, argv);
}
