// Stage 01: the naive i-j-k matrix product on one CPU core.
//   cmake --preset default && cmake --build --preset default --target 01_cpu_naive
//   build/bin/01_cpu_naive --help
#include <string>

#include "01_cpu_naive/kernel.hpp"
#include "common/harness/cpu_gemm_bench.hpp"
#include "common/harness/program.hpp"
#include "common/host_matrix.hpp"

namespace {

int stage_main(int argc, char** argv) {
  ladder::Cli cli("01_cpu_naive", "naive i-j-k matrix product on one CPU core");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::cpu_run_defaults();
  std::string b_layout = "rows";
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--b-layout", &b_layout, {"rows", "transposed", "both"},
                 "B as given (the stage), pre-transposed (B^T made before timing, same "
                 "loop and sum), or both");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;

  ladder::Report report("01_cpu_naive", shape.describe(), ladder::cpu_description());
  ladder::CpuGemmBench bench(shape, options);
  if (b_layout != "transposed") {
    bench.run(report, "i-j-k", ladder::Role::stage, ladder::gemm_cpu_naive);
  }
  if (b_layout != "rows") {
    // B^T is made here, once, from the bench's own B, before anything is timed: the timed
    // runs only read it, and C is checked against the reference of A * B as for every row.
    ladder::HostMatrix bt(shape.n, shape.k);
    ladder::transpose_cpu(bench.b(), bt.view());
    bench.run(report, "i-j-k, B pre-transposed", ladder::Role::stage,
              [&bt](ladder::Matrix a, ladder::Matrix, ladder::Matrix c) {
                ladder::gemm_cpu_naive_pretransposed(a, bt.view(), c);
              });
  }
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("01_cpu_naive", stage_main, argc, argv);
}
