// Stage 06: the naive transpose, against a copy kernel of the same launch shape and
// cudaMemcpy in the same run.
//   cmake --preset native && cmake --build --preset native --target 06_transpose_naive
//   build-native/bin/06_transpose_naive --help
#include <string>
#include <vector>

#include "06_transpose_naive/kernel.hpp"
#include "common/harness/program.hpp"
#include "common/harness/transpose_bench.hpp"

namespace {

int stage_main(int argc, char** argv) {
  ladder::Cli cli("06_transpose_naive",
                  "naive transpose: coalesced reads, strided writes, against the copy ceilings");
  ladder::TransposeShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  ladder::TransposeLayout layout;
  ladder::add_transpose_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_transpose_layout(cli, layout);
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  const int tile = layout.tile_size();
  const std::vector<int> block_rows = layout.block_rows();

  ladder::TransposeBench bench(shape, options);
  ladder::Report report("06_transpose_naive", shape.describe(), device);
  bench.run_memcpy(report);
  for (const int rows : block_rows) bench.run_copy(report, tile, rows);
  for (const int rows : block_rows) {
    bench.run(report, "naive, " + ladder::layout_name(tile, rows), ladder::Role::stage,
              [=](ladder::Matrix in, ladder::Matrix out) {
                ladder::launch_transpose_naive(in, out, tile, rows);
              });
  }
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("06_transpose_naive", stage_main, argc, argv);
}
