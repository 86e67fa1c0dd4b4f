// Stage 03: one GPU thread per element of C, threadIdx.x to rows (smem-matmul) against
// threadIdx.x to columns (the programming guide), with cuBLAS as the ceiling.
//   cmake --preset native && cmake --build --preset native --target 03_gpu_naive
//   build-native/bin/03_gpu_naive --help
#include <string>

#include "03_gpu_naive/kernel.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

int stage_main(int argc, char** argv) {
  ladder::Cli cli("03_gpu_naive",
                  "one GPU thread per element of C: threadIdx.x to rows against threadIdx.x "
                  "to columns");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::string mapping = "both";
  std::string block = "16";
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--mapping", &mapping, {"rows", "cols", "both"},
                 "which index of C threadIdx.x counts");
  cli.add_choice("--block", &block, {"16", "32"}, "threads along each side of a block");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  const int side = std::stoi(block);
  ladder::Report report("03_gpu_naive", shape.describe(), device);
  ladder::GemmBench bench(shape, options);
  const auto run = [&](ladder::NaiveMapping which, const std::string& name) {
    bench.run(report, name + " " + block + "x" + block, ladder::Role::stage,
              [which, side](ladder::Matrix a, ladder::Matrix b, ladder::Matrix c) {
                ladder::launch_gemm_naive(which, side, a, b, c);
              });
  };
  // The article's mapping first: "vs base" compares with a stage's first variant, so the
  // column mapping's reads as the gain from coalescing alone.
  if (mapping != "cols") run(ladder::NaiveMapping::rows, "threadIdx.x->row");
  if (mapping != "rows") run(ladder::NaiveMapping::cols, "threadIdx.x->col");
  bench.run_cublas(report);
  bench.run_transfers(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("03_gpu_naive", stage_main, argc, argv);
}
