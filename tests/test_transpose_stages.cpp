// The transpose stages and the copy kernel they are measured against: every tile and thread layout,
// on shapes that catch edge bugs, compared with the input bit for bit.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "06_transpose_naive/kernel.hpp"
#include "07_transpose_shared/kernel.hpp"
#include "08_transpose_padded/kernel.hpp"
#include "common/harness/transpose_bench.hpp"
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_memory.hpp"
#include "common/harness/report.hpp"
#include "common/harness/tiled_copy.hpp"
#include "common/harness/verify.hpp"
#include "test_support.hpp"

using namespace ladder;

namespace {

using Launcher = void (*)(Matrix in, Matrix out, int tile, int block_rows);

struct Shape {
  int rows;
  int cols;
};

// The degenerate shapes, sizes on both sides of the tile edges (16, 32), rows != cols
// both ways, and one that needs many blocks, partial ones included, in both directions.
std::vector<Shape> transpose_shapes() {
  return {{1, 1},   {1, 77},    {77, 1},    {31, 33},   {32, 32},  {33, 31},
          {64, 96}, {100, 37},  {127, 129}, {256, 255}, {513, 1025}};
}

// Two seeds: a transpose only moves bits, so more inputs would find nothing new and would
// cost time under compute-sanitizer.
std::vector<unsigned> transpose_seeds() { return {1, 2}; }

// Launches on every shape, with and without padded strides, into a NaN-poisoned output, and
// requires an exact transpose (or copy) with the output's padding left untouched.
void check_every_shape(Launcher launch, bool transposes, int tile, int block_rows) {
  for (const Shape shape : transpose_shapes()) {
    const int out_rows = transposes ? shape.cols : shape.rows;
    const int out_cols = transposes ? shape.rows : shape.cols;
    for (const int padding : test::paddings()) {
      DeviceMatrix in(shape.rows, shape.cols, shape.cols + padding);
      DeviceMatrix out(out_rows, out_cols, out_cols + padding);
      for (const unsigned seed : transpose_seeds()) {
        CAPTURE(tile, block_rows, shape.rows, shape.cols, padding, seed);
        HostMatrix in_host = test::random_matrix(shape.rows, shape.cols, padding, seed);
        in.upload(in_host.view());
        out.poison();
        launch(in.view(), out.view(), tile, block_rows);
        CUDA_CHECK(cudaDeviceSynchronize());

        HostMatrix out_host(out_rows, out_cols, out_cols + padding);
        // Whole rows: the padding checked below is the device's.
        copy_2d(whole_rows(out_host.view()), whole_rows(out.view()), cudaMemcpyDeviceToHost);
        const CheckResult check = transposes ? check_transpose(in_host.view(), out_host.view())
                                             : check_copy(in_host.view(), out_host.view());
        INFO(check.summary());
        REQUIRE(check.ok);
        REQUIRE(check.checked == static_cast<long long>(shape.rows) * shape.cols);
        REQUIRE(padding_is_poisoned(out_host.view()));
      }
    }
  }
}

}  // namespace

TEST_CASE("06 naive transpose is exact on every shape and layout", "[gpu][stage06]") {
  const int tile = GENERATE(16, 32);
  const int per_thread = GENERATE(1, 4);
  check_every_shape(launch_transpose_naive, true, tile, tile / per_thread);
}

TEST_CASE("07 shared-memory transpose is exact on every shape and layout", "[gpu][stage07]") {
  const int tile = GENERATE(16, 32);
  const int per_thread = GENERATE(1, 4);
  check_every_shape(launch_transpose_shared, true, tile, tile / per_thread);
}

TEST_CASE("08 padded shared-memory transpose is exact on every shape and layout",
          "[gpu][stage08]") {
  const int tile = GENERATE(16, 32);
  const int per_thread = GENERATE(1, 4);
  check_every_shape(launch_transpose_padded, true, tile, tile / per_thread);
}

TEST_CASE("08 round trips through pinned memory are exact, serial and in bands",
          "[gpu][stage08]") {
  RunOptions options;
  options.repeats = Repeats{0, 1};
  for (const Shape shape : {Shape{1, 1}, Shape{1, 77}, Shape{77, 1}, Shape{100, 37},
                            Shape{513, 1025}}) {
    for (const int bands : {1, 3, 8}) {
      CAPTURE(shape.rows, shape.cols, bands);
      Report report("08_transpose_padded", "", "");
      TransposeBench bench(TransposeShape{shape.rows, shape.cols}, options);
      bench.run_round_trips(
          report, [](Matrix in, Matrix out) { launch_transpose_padded(in, out, 32, 8); }, bands);
      REQUIRE(report.measurements().size() == 2);
      for (const Measurement& row : report.measurements()) {
        INFO(row.variant << ": " << row.check.summary());
        REQUIRE(row.check.ok);
        REQUIRE(row.check.checked == static_cast<long long>(shape.rows) * shape.cols);
      }
    }
  }
}

TEST_CASE("the tiled copy ceiling is exact on every shape and layout", "[gpu][copy]") {
  const int tile = GENERATE(16, 32);
  const int per_thread = GENERATE(1, 4);
  check_every_shape(launch_tiled_copy, false, tile, tile / per_thread);
}

TEST_CASE("the shared-memory tiled copy is exact on every shape and layout",
          "[gpu][copy]") {
  const int tile = GENERATE(16, 32);
  const int per_thread = GENERATE(1, 4);
  check_every_shape(launch_shared_copy, false, tile, tile / per_thread);
}

TEST_CASE("transpose launchers refuse bad layouts and shapes",
          "[stage06][stage07][stage08]") {
  // Both checks throw before anything reaches the GPU, so null data is fine here.
  const Matrix in{5, 3, 5, nullptr};
  const Matrix out{3, 5, 3, nullptr};
  const Matrix not_transposed{5, 3, 5, nullptr};
  for (const Launcher launch :
       {launch_transpose_naive, launch_transpose_shared, launch_transpose_padded}) {
    REQUIRE_THROWS_AS(launch(in, out, 8, 8), std::invalid_argument);
    REQUIRE_THROWS_AS(launch(in, out, 32, 16), std::invalid_argument);
    REQUIRE_THROWS_AS(launch(in, out, 16, 8), std::invalid_argument);
    REQUIRE_THROWS_AS(launch(in, not_transposed, 32, 8), std::invalid_argument);
    REQUIRE_THROWS_WITH(launch(in, out, 16, 8), Catch::Contains("tile 16 with 8 block rows"));
  }
  REQUIRE_THROWS_WITH(launch_tiled_copy(in, in, 32, 16),
                      Catch::Contains("tile 32 with 16 block rows"));
}
