// Stage 07: the transpose through a shared-memory tile, against stage 06's naive transpose,
// two copy kernels of the same launch shape (one through a shared tile) and cudaMemcpy in the
// same run.
//   cmake --preset native && cmake --build --preset native --target 07_transpose_shared
//   build-native/bin/07_transpose_shared --help
#include <string>
#include <vector>

#include "07_transpose_shared/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/transpose_bench.hpp"

namespace {

int stage_main(int argc, char** argv) {
  ladder::Cli cli("07_transpose_shared",
                  "transpose through a shared-memory tile: coalesced reads and writes");
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
  ladder::Report report("07_transpose_shared", shape.describe(), device);
  bench.run_memcpy(report);
  for (const int rows : block_rows) {
    bench.run_copy(report, tile, rows);
    bench.run_copy(report, tile, rows, ladder::TransposeBench::Copy::through_shared);
  }
  for (const int rows : block_rows) {
    bench.run(report, "naive, " + ladder::layout_name(tile, rows), ladder::Role::baseline,
              [=](ladder::Matrix in, ladder::Matrix out) {
                ladder::baseline::transpose_naive()(in, out, tile, rows);
              });
    bench.run(report, "shared, " + ladder::layout_name(tile, rows), ladder::Role::stage,
              [=](ladder::Matrix in, ladder::Matrix out) {
                ladder::launch_transpose_shared(in, out, tile, rows);
              });
  }
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("07_transpose_shared", stage_main, argc, argv);
}
