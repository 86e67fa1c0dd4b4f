// Part 3's stages on the GPU against the double-precision CPU reference: every variant and every
// tiling the programs offer, on shapes around every tile size they use, with operands laid out
// four ways, and the global-memory path each launcher took checked against the alignment rule.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "09_gpu_register_tiled/kernel.hpp"
#include "10_gpu_vectorized/kernel.hpp"
#include "11_gpu_warp_tiled/kernel.hpp"
#include "12_gpu_pipelined/kernel.hpp"
#include "common/aligned_access.hpp"
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_memory.hpp"
#include "common/errors.hpp"
#include "common/harness/verify.hpp"
#include "test_support.hpp"

using namespace ladder;

namespace {

// Shapes around the block tiles (64, 128, 256), the K slices (8, 16), the thread tiles, and
// the degenerate ones; 257x129x1025 and 1100x200x40 refill stage 12's ring many times and
// span more than one group of 8 tile rows in its block order. In 33x66x18 and 130x258x70
// every operand's width (k for A, n for B and C) is 2 mod 4: the "shifted sub-view" layout
// then gives strides of whole float4s with pointers one float past a 16-byte boundary, so a
// launcher that checked only strides would take the 128-bit path and fault. Under
// compute-sanitizer (LADDER_QUICK_SHAPES set, see tests/CMakeLists.txt) a few shapes that
// still run interior and edge blocks, a partial K slice, both paths, a ring refilled (K = 97:
// seven slices of 16), two block-order groups (1100 rows) and the misaligned pointers
// (33x66x18): the sanitizers make each launch hundreds of times slower.
std::vector<test::GemmCase> part3_cases() {
  if (std::getenv("LADDER_QUICK_SHAPES") != nullptr) {
    return {{3, 5, 7},     {129, 260, 33}, {200, 130, 17},
            {129, 70, 97}, {1100, 40, 24}, {33, 66, 18}};
  }
  return {{1, 1, 1},     {1, 1, 7},      {7, 1, 1},       {1, 9, 1},      {3, 5, 7},
          {17, 33, 9},   {64, 64, 1},    {63, 63, 63},    {64, 64, 64},   {65, 65, 65},
          {127, 129, 17}, {128, 128, 16}, {129, 127, 33},  {255, 257, 31}, {256, 256, 24},
          {1000, 3, 17}, {3, 1000, 17},  {17, 1000, 3},   {200, 300, 40}, {257, 129, 1025},
          {1100, 200, 40}, {33, 66, 18},  {130, 258, 70}};
}

// Where an operand lives inside a larger device buffer.
struct Layout {
  const char* name;
  int row_offset;  // the operand starts at (row_offset, col_offset) of its buffer
  int col_offset;
  int (*stride)(int width);
};

const Layout kLayouts[] = {
    {"tight", 0, 0, [](int width) { return width; }},
    // Rows padded to a multiple of 4 floats: every row 16-byte aligned, the 128-bit path.
    {"aligned padding", 0, 0, [](int width) { return (width + 3) / 4 * 4 + 4; }},
    // Three floats of padding: rows start anywhere, the scalar path unless width + 3 is a
    // multiple of 4.
    {"odd padding", 0, 0, [](int width) { return width + 3; }},
    // A sub-view one row and one column into its buffer: with a stride of whole float4s its
    // pointer is one float past a 16-byte boundary, with any other its rows are misaligned:
    // the scalar path either way.
    {"shifted sub-view", 1, 1, [](int width) { return width + 1; }},
};

// A device buffer holding an operand as a sub-view; everything else in it stays NaN.
struct Placed {
  DeviceMatrix buffer;
  Matrix view;
  bool allows_float4;  // what the alignment rule says, worked out from the offsets alone
};

Placed place(int height, int width, const Layout& layout) {
  const int stride = layout.stride(width + layout.col_offset);
  DeviceMatrix buffer(height + layout.row_offset, width + layout.col_offset, stride);
  const Matrix view = buffer.view().sub(layout.row_offset, layout.col_offset, height, width);
  const int offset = layout.row_offset * stride + layout.col_offset;  // elements, from a
  const bool aligned = offset % 4 == 0 && stride % 4 == 0;             // cudaMalloc'd base
  return Placed{std::move(buffer), view, aligned};
}

void upload(const Placed& placed, Matrix host) {
  CUDA_CHECK(cudaMemcpy2D(placed.view.data, placed.view.stride * sizeof(float), host.data,
                          host.stride * sizeof(float), host.width * sizeof(float), host.height,
                          cudaMemcpyHostToDevice));
}

struct Variant {
  std::string name;
  // Launches c = a * b; returns the path taken, or nothing for stage 09 (4-byte only).
  std::function<std::optional<OperandPath>(Matrix a, Matrix b, Matrix c)> launch;
  // Which operands must allow float4 for the 16-byte path (a, b, c); none for stage 09.
  bool needs_a, needs_b, needs_c;
};

// Every case: C's buffer starts all NaN; afterwards C's view must match the reference and
// every other element of its buffer must still be NaN (nothing written past the view), and
// the launcher must have taken the path the alignment rule gives.
void check_part3(const std::vector<Variant>& variants) {
  REQUIRE_FALSE(variants.empty());
  for (const auto& shape : part3_cases()) {
    HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 1);
    HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 2);
    const GemmReference want = reference_gemm(a.view(), b.view());
    for (const Layout& layout : kLayouts) {
      CAPTURE(test::describe(shape), layout.name);
      Placed a_device = place(shape.m, shape.k, layout);
      Placed b_device = place(shape.k, shape.n, layout);
      Placed c_device = place(shape.m, shape.n, layout);
      upload(a_device, a.view());
      upload(b_device, b.view());
      for (const Variant& variant : variants) {
        CAPTURE(variant.name);
        c_device.buffer.poison();
        const auto path = variant.launch(a_device.view, b_device.view, c_device.view);
        CUDA_CHECK(cudaDeviceSynchronize());
        if (path) {
          const bool vector = (!variant.needs_a || a_device.allows_float4) &&
                              (!variant.needs_b || b_device.allows_float4) &&
                              (!variant.needs_c || c_device.allows_float4);
          REQUIRE(*path == (vector ? OperandPath::sixteen_byte : OperandPath::element));
        }
        const Matrix buffer_view = c_device.buffer.view();
        HostMatrix c_buffer(buffer_view.height, buffer_view.width, buffer_view.stride);
        copy_2d(whole_rows(c_buffer.view()), whole_rows(buffer_view), cudaMemcpyDeviceToHost);
        const Matrix c = c_buffer.view().sub(layout.row_offset, layout.col_offset, shape.m,
                                             shape.n);
        const CheckResult check = check_gemm(c, want, shape.k);
        INFO(check.summary());
        REQUIRE(check.ok);
        REQUIRE(check.checked == static_cast<long long>(shape.m) * shape.n);
        REQUIRE(test::written_outside(c_buffer.view(), layout.row_offset, layout.col_offset,
                                      shape.m, shape.n) == 0);
      }
    }
  }
}

}  // namespace

TEST_CASE("shifted sub-views: float4 strides and pointers one float off",
          "[stage10][stage11][stage12]") {
  const Layout& shifted = kLayouts[3];
  REQUIRE(std::string(shifted.name) == "shifted sub-view");
  const auto misaligned_with_float4_stride = [&shifted](int width) {
    const int stride = shifted.stride(width + shifted.col_offset);
    const int offset = shifted.row_offset * stride + shifted.col_offset;
    return stride % 4 == 0 && offset % 4 != 0;
  };
  int shapes = 0;
  for (const auto& shape : part3_cases()) {
    // A's width is k; B's and C's are n.
    shapes += misaligned_with_float4_stride(shape.k) && misaligned_with_float4_stride(shape.n);
  }
  REQUIRE(shapes >= 1);
}

TEST_CASE("09 register tiled: 1D and 2D on every shape and layout",
          "[gpu][stage09]") {
  std::vector<Variant> variants;
  for (const auto& [name, tiling] : {std::pair{"1D", RegisterTiling::one_d},
                                     std::pair{"2D", RegisterTiling::two_d}}) {
    variants.push_back({name,
                        [tiling = tiling](Matrix a, Matrix b, Matrix c) {
                          launch_gemm_register_tiled(tiling, a, b, c);
                          return std::optional<OperandPath>{};
                        },
                        false, false, false});
  }
  check_part3(variants);
}

TEST_CASE("10 vectorized: both paths and depths on every shape and layout",
          "[gpu][stage10]") {
  std::vector<Variant> variants;
  for (const int bk : {16, 8}) {
    variants.push_back({"vectorized BK " + std::to_string(bk),
                        [bk](Matrix a, Matrix b, Matrix c) {
                          return std::optional<OperandPath>{launch_gemm_vectorized(a, b, c, bk)};
                        },
                        true, true, true});
  }
  check_part3(variants);
}

TEST_CASE("11 warp tiled: every tiling on every shape and layout",
          "[gpu][stage11]") {
  std::vector<Variant> variants;
  for (const std::string& config : warp_tiled_configs()) {
    variants.push_back({config,
                        [config](Matrix a, Matrix b, Matrix c) {
                          return std::optional<OperandPath>{
                              launch_gemm_warp_tiled(config, a, b, c)};
                        },
                        true, true, true});
  }
  check_part3(variants);
}

TEST_CASE("12 pipelined: every tiling on every shape and layout",
          "[gpu][stage12]") {
  std::vector<Variant> variants;
  for (const std::string& config : pipelined_configs()) {
    // The launcher refuses a ring larger than this GPU allows a block (sm_75: 64 KB).
    if (const std::string reason = pipelined_unfit_reason(config); !reason.empty()) {
      WARN("skipped: " << reason);
      continue;
    }
    variants.push_back({config,
                        [config](Matrix a, Matrix b, Matrix c) {
                          return std::optional<OperandPath>{
                              launch_gemm_pipelined(config, a, b, c)};
                        },
                        false, true, true});
  }
  for (const std::string& ablation : pipelined_ablations()) {
    variants.push_back({"ablation " + ablation,
                        [ablation](Matrix a, Matrix b, Matrix c) {
                          return std::optional<OperandPath>{
                              launch_gemm_pipelined_ablation(ablation, a, b, c)};
                        },
                        false, true, true});
  }
  variants.push_back({"auto",
                      [](Matrix a, Matrix b, Matrix c) {
                        return std::optional<OperandPath>{launch_gemm_pipelined("auto", a, b, c)};
                      },
                      false, true, true});
  check_part3(variants);
}

TEST_CASE("12 pipelined: the wave rule picks tiles that fill the waves",
          "[stage12]") {
  // The H100: 132 SMs, 227 KB of shared memory per block and 228 KB per SM.
  const auto h100 = [](int m, int n) { return pipelined_config_for(m, n, 132, 232448, 233472); };
  const std::string large = "128x128x16_w32x64_t8x8_256_s3_b2";
  REQUIRE(h100(4096, 4096) == large);  // 1024 tiles: 3.9 waves of 264, a small tail
  REQUIRE(h100(8192, 8192) == large);
  REQUIRE(h100(4097, 4097) == large);  // 1089 tiles: 4.1 waves, the tail is a fifth
  REQUIRE(h100(2048, 2048) == large);  // 256 tiles: one wave of 264, nearly full
  // The articles' problem: 150 tiles of 128x128 fill 57% of one wave; 600 of 64x64 fill 76%.
  REQUIRE(h100(1920, 1280) == "64x64x16_w64x32_t8x8_64_s4_b6_pf");
  REQUIRE(h100(1024, 1024) != large);  // 64 tiles: a quarter of a wave
  // A GPU without enough shared memory for the large tiling gets one that fits.
  REQUIRE(pipelined_config_for(4096, 4096, 132, 48 * 1024, 100 * 1024) != large);
  REQUIRE_THROWS_AS(pipelined_config_for(64, 64, 132, 1024, 65536), UsageError);
}

TEST_CASE("12 pipelined: still right after the device is reset twice", "[gpu][stage12]") {
  // The launcher sets the kernel's shared-memory limit on each launch: a cudaDeviceReset
  // clears it, and a setting cached from before would make the next launch fail.
  const int m = 130, n = 129, k = 33;
  HostMatrix a = test::random_matrix(m, k, 0, 1);
  HostMatrix b = test::random_matrix(k, n, 0, 2);
  const GemmReference want = reference_gemm(a.view(), b.view());
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    {  // the device buffers are freed before the reset, which would invalidate them
      DeviceMatrix a_device(m, k, k), b_device(k, n, n), c_device(m, n, n);
      a_device.upload(a.view());
      b_device.upload(b.view());
      launch_gemm_pipelined(pipelined_configs().front(), a_device.view(), b_device.view(),
                            c_device.view());
      CUDA_CHECK(cudaDeviceSynchronize());
      HostMatrix c(m, n, n);
      c_device.download(c.view());
      const CheckResult check = check_gemm(c.view(), want, k);
      INFO(check.summary());
      REQUIRE(check.ok);
    }
    CUDA_CHECK(cudaDeviceReset());
  }
}

TEST_CASE("Part 3 launchers refuse bad shapes and tilings before the GPU",
          "[stage09][stage10][stage11][stage12]") {
  const Matrix a{4, 3, 4, nullptr};  // 3 x 4
  const Matrix b{5, 4, 5, nullptr};  // 4 x 5
  const Matrix c{5, 3, 5, nullptr};  // 3 x 5
  const Matrix b_too_short{5, 3, 5, nullptr};
  REQUIRE_THROWS_AS(launch_gemm_register_tiled(RegisterTiling::two_d, a, b_too_short, c),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_vectorized(a, b_too_short, c), std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_warp_tiled(warp_tiled_configs().front(), a, b_too_short, c),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_pipelined(pipelined_configs().front(), a, b_too_short, c),
                    std::invalid_argument);
  REQUIRE_THROWS_WITH(launch_gemm_warp_tiled("16x16x16", a, b, c),
                      Catch::Contains("no tiling '16x16x16'"));
  REQUIRE_THROWS_WITH(launch_gemm_pipelined("16x16x16", a, b, c),
                      Catch::Contains("no tiling '16x16x16'"));
}

TEST_CASE("float4 rule: a 16-byte aligned pointer and whole float4 strides",
          "[common]") {
  alignas(16) static float storage[64];
  REQUIRE(allows_float4(Matrix{4, 2, 8, storage}));
  REQUIRE_FALSE(allows_float4(Matrix{4, 2, 7, storage}));      // row 1 starts mid-vector
  REQUIRE_FALSE(allows_float4(Matrix{4, 2, 8, storage + 1}));  // so does row 0
  REQUIRE(allows_float4(Matrix{4, 2, 8, storage + 4}));
}
