// Stage 01: the naive i-j-k matrix product on one CPU core.
//   cmake --preset default && cmake --build --preset default --target 01_cpu_naive
//   build/bin/01_cpu_naive --help
#include "01_cpu_naive/kernel.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

int stage_main(int argc, char** argv) {
  ladder::Cli cli("01_cpu_naive", "naive i-j-k matrix product on one CPU core");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::cpu_run_defaults();
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  if (!cli.parse(argc, argv)) return ladder::kExitOk;

  ladder::Report report("01_cpu_naive", shape.describe(), ladder::cpu_description());
  ladder::CpuGemmBench bench(shape, options);
  bench.run(report, "i-j-k", ladder::Role::stage, ladder::gemm_cpu_naive);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("01_cpu_naive", stage_main, argc, argv);
}
