// Stage 08: the shared-memory transpose with a padded tile, against stage 07's unpadded one,
// two copy kernels of the same launch shape (one through a shared tile) and cudaMemcpy in the
// same run.
//   cmake --preset native && cmake --build --preset native --target 08_transpose_padded
//   build-native/bin/08_transpose_padded --help
#include <string>
#include <vector>

#include "08_transpose_padded/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/transpose_bench.hpp"

namespace {

int stage_main(int argc, char** argv) {
  ladder::Cli cli("08_transpose_padded",
                  "transpose through a padded shared-memory tile: no bank conflicts");
  ladder::TransposeShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  ladder::TransposeLayout layout;
  bool overlap = false;
  int bands = 8;
  ladder::add_transpose_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_transpose_layout(cli, layout);
  cli.add_flag("--overlap", &overlap,
               "also time host -> device, transpose, device -> host: serially, and in row "
               "bands that overlap (pinned host memory, the last layout chosen)");
  cli.add_int("--bands", &bands, "row bands of the --overlap pipeline", 1, 64);
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();

  const int tile = layout.tile_size();
  const std::vector<int> block_rows = layout.block_rows();

  ladder::TransposeBench bench(shape, options);
  ladder::Report report("08_transpose_padded", shape.describe(), device);
  bench.run_memcpy(report);
  for (const int rows : block_rows) {
    bench.run_copy(report, tile, rows);
    bench.run_copy(report, tile, rows, ladder::TransposeBench::Copy::through_shared);
  }
  for (const int rows : block_rows) {
    bench.run(report, "shared, " + ladder::layout_name(tile, rows), ladder::Role::baseline,
              [=](ladder::Matrix in, ladder::Matrix out) {
                ladder::baseline::transpose_shared()(in, out, tile, rows);
              });
    bench.run(report, "padded, " + ladder::layout_name(tile, rows), ladder::Role::stage,
              [=](ladder::Matrix in, ladder::Matrix out) {
                ladder::launch_transpose_padded(in, out, tile, rows);
              });
  }
  if (overlap) {
    const int rows = block_rows.back();
    bench.run_round_trips(
        report,
        [=](ladder::Matrix in, ladder::Matrix out) {
          ladder::launch_transpose_padded(in, out, tile, rows);
        },
        bands);
  }
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("08_transpose_padded", stage_main, argc, argv);
}
