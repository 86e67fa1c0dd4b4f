// Stage 02: the i-k-j matrix product, timed against stage 01's i-j-k in the same run.
//   cmake --preset default && cmake --build --preset default --target 02_cpu_reordered
//   build/bin/02_cpu_reordered --help
#include "02_cpu_reordered/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/cpu_gemm_bench.hpp"
#include "common/harness/program.hpp"

namespace {

int stage_main(int argc, char** argv) {
  ladder::Cli cli("02_cpu_reordered",
                  "i-k-j matrix product on one CPU core, against stage 01's i-j-k");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::cpu_run_defaults();
  bool skip_baseline = false;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_flag("--no-baseline", &skip_baseline, "do not run stage 01's loop for comparison");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;

  ladder::Report report("02_cpu_reordered", shape.describe(), ladder::cpu_description());
  ladder::CpuGemmBench bench(shape, options);
  if (!skip_baseline) {
    const auto naive = ladder::baseline::cpu_naive();
    bench.run(report, naive.label, ladder::Role::baseline, naive.launch);
  }
  bench.run(report, "i-k-j", ladder::Role::stage, ladder::gemm_cpu_reordered);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("02_cpu_reordered", stage_main, argc, argv);
}
