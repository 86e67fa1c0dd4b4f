// Stage 22 on the GPU: the device quantisation bit for bit against the host's, and every
// variant, the per-block one and the whole call from FP32 against a double-precision reference
// of the values the E4M3 operands stand for (every product exact), within fp8_gemm_gamma. The
// operands and C sit inside NaN-filled buffers with guard cells (guarded_layouts.hpp), laid
// out so that some take the TMA path and some the CUDA-core fallback; the path is checked
// against the 16-byte rule. The default also runs many times at a large K, bit for bit the
// same each time. Tagged [sm90] (sm_90a code): the runner skips them on other GPUs.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "22_gpu_fp8/kernel.hpp"
#include "22_gpu_fp8/quantize.hpp"
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_matrix_fp8.hpp"
#include "common/device_memory.hpp"
#include "common/harness/fp8_gemm_bench.hpp"
#include "common/harness/fp8_operands.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"
#include "common/matrix_fp8.hpp"
#include "guarded_layouts.hpp"
#include "test_support.hpp"

using namespace ladder;
using test::guarded_buffer;
using test::Layout;
using test::view_in;

namespace {

// Stage 22's quantisation on the device, which Fp8Operands runs.
const Fp8Quantizers kQuantizers{e4m3_scale_on_device, quantize_e4m3, quantize_e4m3_transposed};

// Shapes on both sides of stage 22's edges: tiles of 128 rows and 128, 192 or 256 columns (two
// parts of 128), K slices of 128 (one scale block) and the 32-deep wgmma step. K = 1064 is 8
// whole slices and a partial 9th; K = 2100 is 16 whole slices and a partial 17th: every slot
// of the 4-slot ring filled four times and more, in both barrier parities. 2100 x 2100 has more
// 128 x 256 tiles (17 x 9) than an H100 holds blocks, so persistent blocks take a second tile.
// Under compute-sanitizer (LADDER_QUICK_SHAPES) a few of them.
std::vector<test::GemmCase> fp8_cases() {
  if (std::getenv("LADDER_QUICK_SHAPES") != nullptr) {
    return {{3, 5, 7}, {129, 260, 33}, {65, 72, 1064}, {65, 300, 2100}};
  }
  return {{1, 1, 1},        {1, 1, 16},       {7, 5, 3},       {17, 33, 9},     {64, 64, 128},
          {65, 65, 129},    {127, 129, 255},  {128, 256, 256}, {129, 257, 257}, {256, 128, 1000},
          {257, 255, 64},   {300, 1, 64},     {1, 300, 64},    {200, 300, 40},  {65, 72, 1064},
          {129, 257, 2100}, {2100, 2100, 200}};
}

// E4M3 rows start 16-byte aligned where the element offset and the stride are multiples of
// 16. Floats (C): multiples of 4.
const Layout kFp8Layouts[] = {
    {"tight", 1, 0, [](int width) { return width; }},
    // 16 guard columns and a stride of whole 16-byte rows, 16 or more after the view: TMA.
    {"aligned padding", 1, 16, [](int width) { return (width + 15) / 16 * 16 + 16; }},
    // One column in: a pointer one byte past a boundary, the fallback whatever the stride.
    {"shifted sub-view", 1, 1, [](int width) { return (width + 1 + 15) / 16 * 16; }},
};
const Layout kFloatLayouts[] = {
    {"tight", 1, 0, [](int width) { return width; }},
    {"aligned padding", 1, 4, [](int width) { return (width + 3) / 4 * 4 + 4; }},
    {"shifted sub-view", 1, 1, [](int width) { return (width + 1 + 3) / 4 * 4; }},
};

// An E4M3 operand inside a guarded buffer, and the values it stands for (codes times their
// factor, FP32) on the device and the host, for the reference.
struct PlacedFp8 {
  DeviceMatrixFp8 buffer;
  MatrixFp8 view;
  DeviceMatrix widened;
  HostMatrix widened_host;
};

// The host copy of a device E4M3 view.
HostMatrixFp8 download_codes(MatrixFp8 device) {
  HostMatrixFp8 codes(device.height, device.width);
  copy_2d(codes.view(), device, cudaMemcpyDeviceToHost);
  return codes;
}

// Per tensor, on the device: `values` (rows x cols, FP32) quantised with its scale into a view
// of shape rows x cols (into_b_t: cols x rows, B into B^T) laid out as `layout`; the device
// codes must equal the host's quantisation with the host's scale, and nothing outside the view
// may be written.
PlacedFp8 place_per_tensor(Matrix values, bool into_b_t, const Layout& layout,
                           DeviceFp8Scale& scale) {
  const int rows = into_b_t ? values.width : values.height;
  const int cols = into_b_t ? values.height : values.width;
  DeviceMatrixFp8 buffer = guarded_buffer<DeviceMatrixFp8>(layout, rows, cols);
  const MatrixFp8 view = view_in(buffer.view(), layout, rows, cols);
  DeviceMatrix source(values.height, values.width);
  source.upload(values);
  e4m3_scale_on_device(source.view(), scale.get());
  if (into_b_t) {
    quantize_e4m3_transposed(source.view(), scale.get(), view);
  } else {
    quantize_e4m3(source.view(), scale.get(), view);
  }
  const Fp8Scale got = scale.download();
  REQUIRE(got.quantize == e4m3_scale(largest_magnitude(values)));
  REQUIRE(got.dequantize == 1.0f / got.quantize);

  HostMatrixFp8 want(values.height, values.width);
  quantize_e4m3(values, got.quantize, want.view());
  HostMatrixFp8 codes = download_codes(view);
  const CheckResult same =
      check_codes(codes.view(), into_b_t ? transposed(want.view()).view() : want.view());
  INFO(same.summary());
  REQUIRE(same.ok);
  HostMatrixFp8 whole = download_codes(whole_rows(buffer.view()));
  long long written = 0;
  for (int row = 0; row < buffer.view().height; ++row) {
    for (int col = 0; col < buffer.view().stride; ++col) {
      const bool inside = row >= layout.row_offset && row < layout.row_offset + rows &&
                          col >= layout.col_offset && col < layout.col_offset + cols;
      written += !inside && whole.view().get(row, col).__x != kPoisonByte;
    }
  }
  REQUIRE(written == 0);

  PlacedFp8 out{std::move(buffer), view, DeviceMatrix(rows, cols), HostMatrix(rows, cols)};
  widen(
      codes.view(), [&](int, int) { return got.dequantize; }, out.widened_host.view());
  out.widened.upload(out.widened_host.view());
  return out;
}

// C's view must be within fp8_gemm_gamma(K, window) of the product of the widened operands
// (a: m x k, b_t: n x k, so B = b_t^T), and nothing outside the view written.
void require_product(PlacedFp8& a, PlacedFp8& b_t, DeviceMatrix& c_buffer, const Layout& c_layout,
                     const test::GemmCase& shape, int window) {
  HostMatrix b_host(shape.k, shape.n);
  const Matrix bt = b_t.widened_host.view();
  for (int row = 0; row < shape.k; ++row) {
    for (int col = 0; col < shape.n; ++col) b_host.set(row, col, bt.get(col, row));
  }
  DeviceMatrix b(shape.k, shape.n);
  b.upload(b_host.view());
  const Matrix c = view_in(c_buffer.view(), c_layout, shape.m, shape.n);
  const CheckResult check =
      check_gemm_on_device(a.widened.view(), b.view(), c, a.widened_host.view(), b_host.view(),
                           fp8_gemm_gamma(shape.k, window));
  INFO(check.summary());
  REQUIRE(check.ok);
  REQUIRE(check.checked == static_cast<long long>(shape.m) * shape.n);
  HostMatrix c_host = test::download_whole(c_buffer);
  REQUIRE(test::written_outside(c_host.view(), c_layout.row_offset, c_layout.col_offset, shape.m,
                                shape.n) == 0);
}

}  // namespace

TEST_CASE("22 FP8: the device quantisation and every variant on every shape and layout",
          "[gpu][sm90][stage22]") {
  const std::vector<std::string> variants = fp8_configs();
  REQUIRE(variants.size() >= 2);
  for (const auto& shape : fp8_cases()) {
    HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 1);
    HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 2);
    for (std::size_t l = 0; l < std::size(kFp8Layouts); ++l) {
      const Layout& layout = kFp8Layouts[l];
      const Layout& c_layout = kFloatLayouts[l];
      CAPTURE(test::describe(shape), layout.name);
      DeviceFp8Scale a_scale;
      DeviceFp8Scale b_scale;
      PlacedFp8 a_device = place_per_tensor(a.view(), false, layout, a_scale);
      PlacedFp8 b_t_device = place_per_tensor(b.view(), true, layout, b_scale);
      DeviceMatrix c_buffer = guarded_buffer<DeviceMatrix>(c_layout, shape.m, shape.n);
      const Matrix c = view_in(c_buffer.view(), c_layout, shape.m, shape.n);
      const bool tma = allows_16_bytes(a_device.view) && allows_16_bytes(b_t_device.view);
      for (const std::string& name : variants) {
        CAPTURE(name);
        c_buffer.poison();
        const OperandPath path = launch_gemm_fp8(name, {a_device.view, a_scale.get()},
                                                 {b_t_device.view, b_scale.get()}, c);
        CUDA_CHECK(cudaDeviceSynchronize());
        REQUIRE(path == (tma ? OperandPath::tma : OperandPath::element));
        require_product(a_device, b_t_device, c_buffer, c_layout, shape,
                        tma ? fp8_promotion_window(name, shape.k) : 0);
      }
    }
  }
}

// Per-block operands made on the host (BlockFp8Operands, rows of whole 16 bytes: TMA), and the
// same codes and factors copied into a shifted sub-view (the fallback).
TEST_CASE("22 FP8 per-block scales: both paths on every shape", "[gpu][sm90][stage22]") {
  for (const auto& shape : fp8_cases()) {
    CAPTURE(test::describe(shape));
    HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 3);
    HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 4);
    BlockFp8Operands blocks(a.view(), b.view());
    for (const bool shifted : {false, true}) {
      CAPTURE(shifted);
      const Layout& layout = kFp8Layouts[shifted ? 2 : 1];
      DeviceMatrixFp8 a_buffer = guarded_buffer<DeviceMatrixFp8>(layout, shape.m, shape.k);
      DeviceMatrixFp8 b_t_buffer = guarded_buffer<DeviceMatrixFp8>(layout, shape.n, shape.k);
      const MatrixFp8 a_view = view_in(a_buffer.view(), layout, shape.m, shape.k);
      const MatrixFp8 b_t_view = view_in(b_t_buffer.view(), layout, shape.n, shape.k);
      copy_2d(a_view, blocks.a(), cudaMemcpyDeviceToDevice);
      copy_2d(b_t_view, blocks.b_t(), cudaMemcpyDeviceToDevice);
      const Layout& c_layout = kFloatLayouts[shifted ? 2 : 1];
      DeviceMatrix c_buffer = guarded_buffer<DeviceMatrix>(c_layout, shape.m, shape.n);
      const Matrix c = view_in(c_buffer.view(), c_layout, shape.m, shape.n);
      const OperandPath path = launch_gemm_fp8_block_scaled({a_view, blocks.a_dequantize()},
                                                            {b_t_view, blocks.b_dequantize()}, c);
      CUDA_CHECK(cudaDeviceSynchronize());
      REQUIRE(path == (shifted ? OperandPath::element : OperandPath::tma));
      const CheckResult check = check_gemm_on_device(
          blocks.a_widened(), blocks.b_widened(), c, blocks.a_widened_host(),
          blocks.b_widened_host(), fp8_gemm_gamma(shape.k, shifted ? 0 : kFp8ScaleBlock));
      INFO(check.summary());
      REQUIRE(check.ok);
      HostMatrix c_host = test::download_whole(c_buffer);
      REQUIRE(test::written_outside(c_host.view(), c_layout.row_offset, c_layout.col_offset,
                                    shape.m, shape.n) == 0);
    }
  }
}

// The whole call from FP32 quantises as Fp8Operands does and multiplies by the default: the
// same C, bit for bit.
TEST_CASE("22 FP8 from FP32: the same C as quantising first", "[gpu][sm90][stage22]") {
  for (const test::GemmCase shape : {test::GemmCase{65, 72, 1064}, test::GemmCase{300, 260, 129}}) {
    CAPTURE(test::describe(shape));
    HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 5);
    HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 6);
    Fp8Operands ops(a.view(), b.view(), kQuantizers);
    DeviceMatrix first(shape.m, shape.n);
    launch_gemm_fp8(fp8_configs().front(), ops.a(), ops.b_t(), first.view());
    DeviceMatrixFp8 a_work(shape.m, shape.k, fp8_stride(shape.k));
    DeviceMatrixFp8 b_t_work(shape.n, shape.k, fp8_stride(shape.k));
    DeviceFp8Scale a_scale;
    DeviceFp8Scale b_scale;
    DeviceMatrix second(shape.m, shape.n);
    const Fp8Workspace work{a_work.view(), b_t_work.view(), a_scale.get(), b_scale.get()};
    REQUIRE(launch_gemm_fp8_from_float(ops.a_float(), ops.b_float(), work, second.view()) ==
            OperandPath::tma);
    HostMatrix one(shape.m, shape.n);
    HostMatrix two(shape.m, shape.n);
    first.download(one.view());
    second.download(two.view());
    const CheckResult same = check_copy(one.view(), two.view());
    INFO(same.summary());
    REQUIRE(same.ok);
  }
}

// A slot refilled too early, or a promotion that reads accumulators still being written,
// spoils different elements from run to run: 30 runs of the default (and of the per-block
// variant) at K = 4136 (32 slices and a partial 33rd) must agree bit for bit.
TEST_CASE("22 FP8: bit-identical results run after run", "[gpu][sm90][stage22][repeatable]") {
  const bool quick = std::getenv("LADDER_QUICK_SHAPES") != nullptr;
  const test::GemmCase shape =
      quick ? test::GemmCase{65, 300, 2100} : test::GemmCase{384, 512, 4136};
  const int runs = quick ? 2 : 30;
  HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 7);
  HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 8);
  Fp8Operands ops(a.view(), b.view(), kQuantizers);
  BlockFp8Operands blocks(a.view(), b.view());
  DeviceMatrix c(shape.m, shape.n);
  const std::vector<std::function<void()>> launches = {
      [&] { launch_gemm_fp8(fp8_configs().front(), ops.a(), ops.b_t(), c.view()); },
      [&] {
        launch_gemm_fp8_block_scaled({blocks.a(), blocks.a_dequantize()},
                                     {blocks.b_t(), blocks.b_dequantize()}, c.view());
      }};
  for (std::size_t v = 0; v < launches.size(); ++v) {
    CAPTURE(v);
    c.poison();
    launches[v]();
    HostMatrix first(shape.m, shape.n);
    c.download(first.view());
    for (int again = 1; again < runs; ++again) {
      c.poison();
      launches[v]();
      HostMatrix later(shape.m, shape.n);
      c.download(later.view());
      const CheckResult same = check_copy(first.view(), later.view());
      INFO(same.summary());
      REQUIRE(same.ok);
    }
  }
}

namespace {

// Exact inputs, so that a check can demand C bit for bit. Codes are small integers, -3 to 3:
// their products (at most 9) and every partial sum the tensor cores hold between promotions
// (at most 512 products: 4,608 < 2^13) are exact in the accumulation the error bound allows,
// and the FP32 sums of the windows too (under 2^24). Factors are powers of two, different per
// tensor (A's 2^-3, B's 2^5) or per block, so that a factor applied to the wrong rows, columns
// or slices changes C, and multiplying by them stays exact.
fp8_e4m3 small_integer(int row, int col, int salt) {
  const unsigned hash = (static_cast<unsigned>(row) * 2654435761u) ^
                        (static_cast<unsigned>(col) * 40503u) ^ static_cast<unsigned>(salt);
  return fp8_e4m3(static_cast<float>(static_cast<int>((hash >> 7) % 7) - 3));
}

// A's codes (m x k) and B^T's (n x k) in guarded buffers laid out as `layout`, and the values
// they stand for with factor(row, col) (of A, and of B^T: row n, column k), A and B (k x n)
// in FP32 on the device and the host.
struct ExactOperands {
  DeviceMatrixFp8 a_buffer;
  DeviceMatrixFp8 b_t_buffer;
  MatrixFp8 a;
  MatrixFp8 b_t;
  HostMatrix a_host;
  HostMatrix b_host;
  DeviceMatrix a_widened;
  DeviceMatrix b_widened;
};

template <class AFactor, class BFactor>
ExactOperands exact_operands(const test::GemmCase& shape, const Layout& layout, AFactor a_factor,
                             BFactor b_factor) {
  ExactOperands out{guarded_buffer<DeviceMatrixFp8>(layout, shape.m, shape.k),
                    guarded_buffer<DeviceMatrixFp8>(layout, shape.n, shape.k),
                    {},
                    {},
                    HostMatrix(shape.m, shape.k),
                    HostMatrix(shape.k, shape.n),
                    DeviceMatrix(shape.m, shape.k),
                    DeviceMatrix(shape.k, shape.n)};
  out.a = view_in(out.a_buffer.view(), layout, shape.m, shape.k);
  out.b_t = view_in(out.b_t_buffer.view(), layout, shape.n, shape.k);
  HostMatrixFp8 a_codes(shape.m, shape.k);
  HostMatrixFp8 b_t_codes(shape.n, shape.k);
  for (int row = 0; row < shape.m; ++row) {
    for (int k = 0; k < shape.k; ++k) {
      const fp8_e4m3 code = small_integer(row, k, 1);
      a_codes.view().set(row, k, code);
      out.a_host.set(row, k, static_cast<float>(code) * a_factor(row, k));
    }
  }
  for (int n = 0; n < shape.n; ++n) {
    for (int k = 0; k < shape.k; ++k) {
      const fp8_e4m3 code = small_integer(n, k, 2);
      b_t_codes.view().set(n, k, code);
      out.b_host.set(k, n, static_cast<float>(code) * b_factor(n, k));
    }
  }
  copy_2d(out.a, a_codes.view(), cudaMemcpyHostToDevice);
  copy_2d(out.b_t, b_t_codes.view(), cudaMemcpyHostToDevice);
  out.a_widened.upload(out.a_host.view());
  out.b_widened.upload(out.b_host.view());
  return out;
}

// C's view must equal the product of the widened operands exactly (the bound 0).
void require_exact(ExactOperands& ops, DeviceMatrix& c_buffer, const Layout& c_layout,
                   const test::GemmCase& shape) {
  const Matrix c = view_in(c_buffer.view(), c_layout, shape.m, shape.n);
  const CheckResult check = check_gemm_on_device(ops.a_widened.view(), ops.b_widened.view(), c,
                                                 ops.a_host.view(), ops.b_host.view(), 0.0);
  INFO(check.summary());
  REQUIRE(check.ok);
  HostMatrix c_host = test::download_whole(c_buffer);
  REQUIRE(test::written_outside(c_host.view(), c_layout.row_offset, c_layout.col_offset, shape.m,
                                shape.n) == 0);
}

std::vector<test::GemmCase> exact_cases() {
  if (std::getenv("LADDER_QUICK_SHAPES") != nullptr) return {{65, 72, 1064}, {129, 260, 257}};
  return {{65, 72, 1064}, {129, 260, 257}, {300, 200, 129}, {129, 257, 2100}, {2100, 2100, 200}};
}

}  // namespace

// Every variant whose windows hold at most 512 products (every one where K <= 512), per
// tensor, on both paths: bit for bit.
TEST_CASE("22 FP8 on exact inputs: every variant and both paths, bit for bit",
          "[gpu][sm90][stage22]") {
  DeviceFp8Scale a_scale;
  DeviceFp8Scale b_scale;
  a_scale.upload(Fp8Scale{0.125f, 8.0f});
  b_scale.upload(Fp8Scale{32.0f, 1.0f / 32});
  for (const auto& shape : exact_cases()) {
    for (const std::size_t l : {std::size_t{1}, std::size_t{2}}) {  // aligned, shifted
      CAPTURE(test::describe(shape), kFp8Layouts[l].name);
      ExactOperands ops = exact_operands(
          shape, kFp8Layouts[l], [](int, int) { return 0.125f; }, [](int, int) { return 32.0f; });
      DeviceMatrix c_buffer = guarded_buffer<DeviceMatrix>(kFloatLayouts[l], shape.m, shape.n);
      const Matrix c = view_in(c_buffer.view(), kFloatLayouts[l], shape.m, shape.n);
      for (const std::string& name : fp8_configs()) {
        if (fp8_promotion_window(name, shape.k) > 512) continue;
        CAPTURE(name);
        c_buffer.poison();
        const OperandPath path =
            launch_gemm_fp8(name, {ops.a, a_scale.get()}, {ops.b_t, b_scale.get()}, c);
        CUDA_CHECK(cudaDeviceSynchronize());
        REQUIRE(path == (l == 1 ? OperandPath::tma : OperandPath::element));
        require_exact(ops, c_buffer, kFloatLayouts[l], shape);
      }
    }
  }
}

// Per block: a power of two per 1 x 128 block of A (by row and slice) and per 128 x 128 block
// of B^T (by column block and slice), each different from its neighbours.
TEST_CASE("22 FP8 per-block factors on exact inputs: both paths, bit for bit",
          "[gpu][sm90][stage22]") {
  const auto a_power = [](int row, int slice) {
    return std::ldexp(1.0f, (row + 2 * slice) % 5 - 2);
  };
  const auto b_power = [](int block, int slice) {
    return std::ldexp(1.0f, (3 * block + slice) % 4 - 1);
  };
  for (const auto& shape : exact_cases()) {
    const int slices = (shape.k + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
    const int blocks_n = (shape.n + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
    HostMatrix a_factors(shape.m, slices);
    HostMatrix b_factors(blocks_n, slices);
    for (int row = 0; row < shape.m; ++row) {
      for (int s = 0; s < slices; ++s) a_factors.set(row, s, a_power(row, s));
    }
    for (int block = 0; block < blocks_n; ++block) {
      for (int s = 0; s < slices; ++s) b_factors.set(block, s, b_power(block, s));
    }
    DeviceMatrix a_factors_device(shape.m, slices);
    DeviceMatrix b_factors_device(blocks_n, slices);
    a_factors_device.upload(a_factors.view());
    b_factors_device.upload(b_factors.view());
    for (const std::size_t l : {std::size_t{1}, std::size_t{2}}) {
      CAPTURE(test::describe(shape), kFp8Layouts[l].name);
      ExactOperands ops = exact_operands(
          shape, kFp8Layouts[l], [&](int row, int k) { return a_power(row, k / kFp8ScaleBlock); },
          [&](int n, int k) { return b_power(n / kFp8ScaleBlock, k / kFp8ScaleBlock); });
      DeviceMatrix c_buffer = guarded_buffer<DeviceMatrix>(kFloatLayouts[l], shape.m, shape.n);
      const Matrix c = view_in(c_buffer.view(), kFloatLayouts[l], shape.m, shape.n);
      const OperandPath path = launch_gemm_fp8_block_scaled({ops.a, a_factors_device.view()},
                                                            {ops.b_t, b_factors_device.view()}, c);
      CUDA_CHECK(cudaDeviceSynchronize());
      REQUIRE(path == (l == 1 ? OperandPath::tma : OperandPath::element));
      require_exact(ops, c_buffer, kFloatLayouts[l], shape);
    }
  }
}

// The scale of an all-zero matrix is 1 (its codes all zero), and a K of 0 makes C = 0, the
// empty sums, on a view with no columns.
TEST_CASE("22 FP8: an all-zero matrix and K = 0", "[gpu][sm90][stage22]") {
  DeviceMatrix zeros(40, 70);
  CUDA_CHECK(cudaMemset(zeros.view().data, 0, bytes_of(zeros.view())));
  DeviceFp8Scale scale;
  scale.upload(Fp8Scale{5.0f, 5.0f});
  e4m3_scale_on_device(zeros.view(), scale.get());
  const Fp8Scale got = scale.download();
  REQUIRE(got.quantize == 1.0f);
  REQUIRE(got.dequantize == 1.0f);

  DeviceMatrixFp8 a(8, 16);
  DeviceMatrixFp8 b_t(16, 16);
  DeviceMatrix c(8, 16);
  const MatrixFp8 no_columns_a{0, 8, 16, a.view().data};
  const MatrixFp8 no_columns_b_t{0, 16, 16, b_t.view().data};
  launch_gemm_fp8(fp8_configs().front(), {no_columns_a, scale.get()}, {no_columns_b_t, scale.get()},
                  c.view());
  HostMatrix c_host(8, 16);
  c.download(c_host.view());
  for (int row = 0; row < 8; ++row) {
    for (int col = 0; col < 16; ++col) REQUIRE(c_host.get(row, col) == 0.0f);
  }
}

TEST_CASE("22 FP8 refuses mismatched shapes, unknown variants and misshapen factors",
          "[gpu][sm90][stage22]") {
  DeviceMatrixFp8 a(8, 32);
  DeviceMatrixFp8 b_t(16, 32);
  DeviceMatrixFp8 b_t_short(16, 16);  // k 16 != 32
  DeviceMatrix c(8, 16);
  DeviceFp8Scale scale;
  REQUIRE_THROWS_AS(launch_gemm_fp8("by_size", {a.view(), scale.get()},
                                    {b_t_short.view(), scale.get()}, c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_fp8("no-such-variant", {a.view(), scale.get()},
                                    {b_t.view(), scale.get()}, c.view()),
                    std::invalid_argument);
  DeviceMatrix a_factors(8, 1);
  DeviceMatrix b_factors(1, 1);
  DeviceMatrix wrong(8, 2);  // 2 blocks of K where there is 1
  REQUIRE_THROWS_AS(launch_gemm_fp8_block_scaled({a.view(), wrong.view()},
                                                 {b_t.view(), b_factors.view()}, c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_fp8_block_scaled({a.view(), a_factors.view()},
                                                 {b_t.view(), wrong.view()}, c.view()),
                    std::invalid_argument);
  REQUIRE_NOTHROW(launch_gemm_fp8_block_scaled({a.view(), a_factors.view()},
                                               {b_t.view(), b_factors.view()}, c.view()));
  CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_CASE("22 FP8: promotion windows and strides", "[stage22]") {
  REQUIRE(fp8_promotion_window("by_size", 4096) == 128);
  REQUIRE(fp8_promotion_window("128x192_c2_promote4", 4096) == 512);
  REQUIRE(fp8_promotion_window("128x192_c2_no_promotion", 4096) == 4096);
  REQUIRE_THROWS_AS(fp8_promotion_window("no-such-variant", 1), std::invalid_argument);
  REQUIRE(fp8_stride(1) == 16);
  REQUIRE(fp8_stride(16) == 16);
  REQUIRE(fp8_stride(17) == 32);
  // The fallback sums in FP32 without the tensor cores: no window, the BF16 stages' bound.
  REQUIRE(fp8_gemm_gamma(1000, 0) == tensor_gemm_gamma(1000));
  REQUIRE(fp8_gemm_gamma(1000, 0) < fp8_gemm_gamma(1000, 128));
}
