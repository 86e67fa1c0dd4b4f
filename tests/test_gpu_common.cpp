// The GPU half of common/: device owners, the on-device GEMM check, the cuBLAS ceilings,
// and Part 4's BF16 operands, conversions and bench, the Hopper probe and TMA tensor maps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "01_cpu_naive/kernel.hpp"
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_matrix_bf16.hpp"
#include "common/device_memory.hpp"
#include "common/device_probe.hpp"
#include "common/errors.hpp"
#include "common/grid.hpp"
#include "common/harness/cublas_gemm.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/report.hpp"
#include "common/harness/bf16_operand.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/harness/transpose_bench.hpp"
#include "common/harness/verify.hpp"
#include "common/tensor_cores.hpp"
#include "common/tensor_map.hpp"
#include "common/tensor_map_fp32.hpp"
#include "test_support.hpp"

using namespace ladder;

TEST_CASE("a device is found and described", "[gpu]") {
  const DeviceInfo device = require_device();
  REQUIRE_FALSE(device.name.empty());
  REQUIRE(device.major >= 7);
  REQUIRE(device.multiprocessors > 0);
}

TEST_CASE("no GPU or no driver reads as such, not as an old driver", "[common][device]") {
  using Catch::Contains;
  using Catch::StartsWith;
  for (const cudaError_t missing : {cudaErrorInsufficientDriver, cudaErrorNoDevice}) {
    const std::string reason = device_count_failure(missing);
    CAPTURE(reason);
    REQUIRE_THAT(reason, StartsWith("no NVIDIA GPU or driver found ("));
    REQUIRE_THAT(reason, Contains(cudaGetErrorString(missing)));
  }
  REQUIRE(device_count_failure(cudaErrorInitializationError) ==
          std::string("cudaGetDeviceCount failed: ") +
              cudaGetErrorString(cudaErrorInitializationError));
}

TEST_CASE("device matrices start poisoned and round-trip with padding", "[gpu]") {
  HostMatrix host = test::random_matrix(5, 7, 3, 11);
  DeviceMatrix device(5, 7, 10);
  HostMatrix back = test::poisoned_matrix(5, 7, 3);
  fill_random(back.view(), 99);
  // Whole rows, to see the device's padding: a download copies the 5x7 elements only.
  copy_2d(whole_rows(back.view()), whole_rows(device.view()), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 10; ++j) REQUIRE(std::isnan(back.view().get(i, j)));

  device.upload(host.view());  // the elements only: the device's padding stays NaN
  DeviceMatrix moved = std::move(device);
  REQUIRE(device.view().data == nullptr);
  copy_2d(whole_rows(back.view()), whole_rows(moved.view()), cudaMemcpyDeviceToHost);
  REQUIRE(check_copy(host.view(), back.view()).ok);
  REQUIRE(padding_is_poisoned(back.view()));

  HostMatrix unpadded(5, 7);  // different stride: only the 5x7 elements travel
  moved.download(unpadded.view());
  REQUIRE(check_copy(host.view(), unpadded.view()).ok);
}

TEST_CASE("the on-device GEMM check agrees with the host check", "[gpu]") {
  for (const auto& shape : test::gemm_cases()) {
    CAPTURE(test::describe(shape));
    HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 5);
    HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 6);
    HostMatrix c(shape.m, shape.n);
    gemm_cpu_naive(a.view(), b.view(), c.view());
    DeviceMatrix a_dev(shape.m, shape.k), b_dev(shape.k, shape.n), c_dev(shape.m, shape.n);
    a_dev.upload(a.view());
    b_dev.upload(b.view());
    c_dev.upload(c.view());
    const CheckResult good =
        check_gemm_on_device(a_dev.view(), b_dev.view(), c_dev.view(), a.view(), b.view());
    INFO(good.summary());
    REQUIRE(good.ok);
    REQUIRE(good.checked == static_cast<long long>(shape.m) * shape.n);

    // One element one product term off, at the last row and column (an edge tile).
    const int row = shape.m - 1;
    const int col = shape.n - 1;
    const GemmReference ref = reference_gemm(a.view(), b.view());
    const double term = ref.magnitude[static_cast<std::size_t>(row) * shape.n + col] / shape.k;
    c.set(row, col, static_cast<float>(c.get(row, col) + term));
    c_dev.upload(c.view());
    const CheckResult bad =
        check_gemm_on_device(a_dev.view(), b_dev.view(), c_dev.view(), a.view(), b.view());
    INFO(bad.summary());
    REQUIRE_FALSE(bad.ok);
    REQUIRE(bad.row == row);
    REQUIRE(bad.col == col);

    c.set(0, 0, NAN);
    c_dev.upload(c.view());
    REQUIRE_FALSE(
        check_gemm_on_device(a_dev.view(), b_dev.view(), c_dev.view(), a.view(), b.view()).ok);
  }
}

namespace {

// C = A * B by cuBLAS, in FP32 or TF32, for a 64 x 256 A of 1 + 2^-12 and a 256 x 64 B of
// ones. 1 + 2^-12 is exact in FP32, while TF32 keeps 10 mantissa bits and reads it as 1
// (truncating or rounding). Every partial sum of k * (1 + 2^-12), k <= 256, is exact in FP32,
// in any order: pure FP32 gives exactly 256 + 2^-4 for each element, TF32 256.
HostMatrix cublas_product_of_near_ones(bool tf32) {
  constexpr int kSize = 64;
  constexpr int kDepth = 256;
  HostMatrix a(kSize, kDepth);
  HostMatrix b(kDepth, kSize);
  for (int i = 0; i < kSize; ++i)
    for (int k = 0; k < kDepth; ++k) a.set(i, k, 1.0f + 0x1p-12f);
  for (int k = 0; k < kDepth; ++k)
    for (int j = 0; j < kSize; ++j) b.set(k, j, 1.0f);
  DeviceMatrix a_dev(kSize, kDepth), b_dev(kDepth, kSize), c_dev(kSize, kSize);
  a_dev.upload(a.view());
  b_dev.upload(b.view());
  CublasGemm cublas;
  if (tf32) {
    cublas.tf32(a_dev.view(), b_dev.view(), c_dev.view());
  } else {
    cublas(a_dev.view(), b_dev.view(), c_dev.view());
  }
  HostMatrix c(kSize, kSize);
  c_dev.download(c.view());
  return c;
}

}  // namespace

TEST_CASE("cuBLAS in FP32 keeps the bits that TF32 would drop", "[gpu][cublas]") {
  HostMatrix c = cublas_product_of_near_ones(false);
  for (int i = 0; i < c.height(); ++i)
    for (int j = 0; j < c.width(); ++j) REQUIRE(c.get(i, j) == 256.0f + 0x1p-4f);
}

// The ceiling of stage 20's variant must really be TF32.
TEST_CASE("cuBLAS TF32 drops the bits that FP32 keeps", "[gpu][cublas]") {
  HostMatrix c = cublas_product_of_near_ones(true);
  for (int i = 0; i < c.height(); ++i)
    for (int j = 0; j < c.width(); ++j) REQUIRE(c.get(i, j) == 256.0f);
}

TEST_CASE("cuBLAS in FP32 stays within the FP32 error bound", "[gpu][cublas]") {
  // The ceiling must pass the same check as the stages it is compared with.
  CublasGemm cublas;
  for (const test::GemmCase shape : {test::GemmCase{33, 17, 65}, test::GemmCase{256, 256, 1024}}) {
    for (const int padding : test::paddings()) {
      CAPTURE(test::describe(shape), padding);
      HostMatrix a = test::random_matrix(shape.m, shape.k, padding, 1);
      HostMatrix b = test::random_matrix(shape.k, shape.n, padding, 2);
      DeviceMatrix a_dev(shape.m, shape.k, shape.k + padding);
      DeviceMatrix b_dev(shape.k, shape.n, shape.n + padding);
      DeviceMatrix c_dev(shape.m, shape.n, shape.n + padding);
      a_dev.upload(a.view());
      b_dev.upload(b.view());
      cublas(a_dev.view(), b_dev.view(), c_dev.view());
      HostMatrix c(shape.m, shape.n, shape.n + padding);
      copy_2d(whole_rows(c.view()), whole_rows(c_dev.view()), cudaMemcpyDeviceToHost);
      const CheckResult check = check_gemm(c.view(), reference_gemm(a.view(), b.view()), shape.k);
      INFO(check.summary());
      REQUIRE(check.ok);
      REQUIRE(padding_is_poisoned(c.view()));  // C's padding on the device, copied with it
    }
  }
}

TEST_CASE("grids past CUDA's 65535 blocks in y are a usage error", "[launch]") {
  REQUIRE(grid_covering(100, 65535 * 16, 16, 16).y == 65535);
  REQUIRE(grid_covering(33, 17, 16, 16).x == 3);
  REQUIRE(grid_covering(33, 17, 16, 16).y == 2);
  REQUIRE_THROWS_AS(grid_covering(1, 65535 * 16 + 1, 16, 16), UsageError);
}

TEST_CASE("the benches time with L2 flushed or warm, and say which", "[gpu][cublas]") {
  L2Flush flush;
  flush();
  CUDA_CHECK(cudaDeviceSynchronize());
  for (const std::string l2 : {"flushed", "warm"}) {
    CAPTURE(l2);
    RunOptions options = gpu_run_defaults();
    options.repeats = Repeats{1, 2};
    options.l2 = l2;
    Report report("test", "", "");
    GemmBench gemm(GemmShape{33, 17, 65}, options);
    gemm.run_cublas(report);
    TransposeBench transpose(TransposeShape{33, 65}, options);
    transpose.run_memcpy(report);
    for (const Measurement& row : report.measurements()) {
      INFO(row.variant << ": " << row.check.summary());
      REQUIRE(row.check.ok);
      REQUIRE(row.l2 == l2);
    }
  }
}

TEST_CASE("the description adds the BF16 peak where it is known", "[common][device]") {
  DeviceInfo h100;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.major = 9;
  h100.multiprocessors = 132;
  h100.memory_bytes = 79ull << 30;
  h100.l2_bytes = 52'428'800;
  h100.fp32_peak_gflops = 66'908.2;
  REQUIRE(h100.describe() ==
          "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79 GiB, L2 52 MB, FP32 peak 66.9 TFLOP/s)");
  h100.bf16_peak_gflops = 132 * 4096 * 1.98;  // SMs x FLOP per clock per SM x GHz
  REQUIRE(h100.describe() ==
          "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79 GiB, L2 52 MB, FP32 peak 66.9 TFLOP/s, "
          "BF16 peak 1070.5 TFLOP/s)");
}

namespace {

// A host MatrixBf16 over `elements`, which must outlive it.
MatrixBf16 host_view(std::vector<bf16>& elements, int height, int width, int stride) {
  elements.assign(static_cast<std::size_t>(stride) * height, bf16{});
  return MatrixBf16{width, height, stride, elements.data()};
}

}  // namespace

TEST_CASE("BF16 operands follow the float shape rules", "[common][bf16]") {
  const MatrixBf16 a{7, 3, 8, nullptr};  // 3x7, stride 8
  const MatrixBf16 b{5, 7, 5, nullptr};  // 7x5
  REQUIRE_NOTHROW(check_gemm_shapes(a, b, Matrix{5, 3, 5, nullptr}));
  REQUIRE_THROWS_WITH(check_gemm_shapes(a, b, Matrix{5, 4, 5, nullptr}),
                      "c = a * b needs a.width == b.height and c a.height x b.width");
  REQUIRE_THROWS_AS(check_gemm_shapes(a, MatrixBf16{5, 6, 5, nullptr}, Matrix{5, 3, 5, nullptr}),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(check_gemm_shapes(a, b, Matrix{4, 3, 5, nullptr}), std::invalid_argument);
  // The conversions refuse mismatched views before launching anything.
  REQUIRE_THROWS_WITH(round_to_bf16(Matrix{7, 3, 7, nullptr}, MatrixBf16{7, 4, 7, nullptr}),
                      "round_to_bf16 needs src and dst of the same shape");
  REQUIRE_THROWS_WITH(widen_to_float(MatrixBf16{7, 3, 7, nullptr}, Matrix{6, 3, 7, nullptr}),
                      "widen_to_float needs src and dst of the same shape");
}

TEST_CASE("BF16 device matrices start poisoned and round-trip with padding", "[gpu][bf16]") {
  DeviceMatrixBf16 device(3, 5, 8);
  std::vector<bf16> elements;
  const MatrixBf16 host = host_view(elements, 3, 5, 8);
  copy_2d(whole_rows(host), whole_rows(device.view()), cudaMemcpyDeviceToHost);  // padding too
  for (const bf16 x : elements) REQUIRE(std::isnan(__bfloat162float(x)));

  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) host.set(i, j, __float2bfloat16_rn(i * 5 + j + 0.5f));
  device.upload(host);
  DeviceMatrixBf16 moved = std::move(device);
  REQUIRE(device.view().data == nullptr);
  std::vector<bf16> back_elements;
  const MatrixBf16 back = host_view(back_elements, 3, 5, 5);  // another stride: elements only
  moved.download(back);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) REQUIRE(__bfloat16_as_ushort(back.get(i, j)) == __bfloat16_as_ushort(host.get(i, j)));
}

namespace {

float as_float(float x) { return x; }
float as_float(bf16 x) { return __bfloat162float(x); }

// A device matrix (DeviceMatrix or DeviceMatrixBf16) and a host sub-view of the same stride
// whose rows end before the stride does: a copy of whole rows would write the host elements
// past each row of the view on a download, and read them on an upload, past the end of the
// host buffer on its last row. Element: float or bf16; every value is exact in both.
template <class Owner, class Element>
void check_sub_view_copies() {
  using View = decltype(std::declval<const Owner&>().view());
  constexpr int kStride = 12;
  constexpr float kGuard = -7.0f;

  // Download into a 3x5 view at (1, 4) of 5 rows of guard cells: the cells around it stay.
  std::vector<Element> host(kStride * 5, Element(kGuard));
  const View into = View{kStride, 5, kStride, host.data()}.sub(1, 4, 3, 5);
  Owner device(3, 5, kStride);
  std::vector<Element> values(15);
  for (int i = 0; i < 15; ++i) values[i] = Element(i + 0.5f);
  device.upload(View{5, 3, 5, values.data()});
  device.download(into);
  for (int row = 0; row < 5; ++row) {
    for (int col = 0; col < kStride; ++col) {
      CAPTURE(row, col);
      const bool inside = row >= 1 && row < 4 && col >= 4 && col < 9;
      const float want = inside ? (row - 1) * 5 + (col - 4) + 0.5f : kGuard;
      REQUIRE(as_float(host[row * kStride + col]) == want);
    }
  }

  // Upload from a 3x8 view at (0, 4) whose last element is the host buffer's last: the device
  // matrix's padding (columns 8-11) stays NaN, as its constructor left it.
  std::vector<Element> source(kStride * 3);
  for (int i = 0; i < kStride * 3; ++i) source[i] = Element(i + 0.5f);
  Owner target(3, 8, kStride);
  target.upload(View{kStride, 3, kStride, source.data()}.sub(0, 4, 3, 8));
  std::vector<Element> back(kStride * 3);
  copy_2d(whole_rows(View{8, 3, kStride, back.data()}), whole_rows(target.view()),
          cudaMemcpyDeviceToHost);
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < kStride; ++col) {
      CAPTURE(row, col);
      const float got = as_float(back[row * kStride + col]);
      if (col < 8) {
        REQUIRE(got == as_float(source[row * kStride + 4 + col]));
      } else {
        REQUIRE(std::isnan(got));
      }
    }
  }
}

}  // namespace

TEST_CASE("copies with a host sub-view touch only its elements", "[gpu]") {
  check_sub_view_copies<DeviceMatrix, float>();
}

TEST_CASE("BF16 copies with a host sub-view touch only its elements", "[gpu][bf16]") {
  check_sub_view_copies<DeviceMatrixBf16, bf16>();
}

TEST_CASE("round_to_bf16 rounds to nearest even inside a sub-view only",
          "[gpu][bf16]") {
  // Ties between two BF16 neighbours (8 significant bits) go to the even one; NaN stays NaN;
  // beyond the largest BF16 (0x7F7F) is infinity; subnormals round like any other value.
  const std::vector<float> specials = {
      0.0f, -0.0f, 1.0f, 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 1.0f + 0x1p-8f + 0x1p-20f,
      -(1.0f + 0x1p-8f), NAN, -NAN, INFINITY, -INFINITY, FLT_MAX, 0x1.fep127f, 0x1.ffp127f,
      FLT_MIN, 1e-40f, 0x1p-133f, 3 * 0x1p-134f, 0x1p-149f, -1e-40f, 0.1f, -3.14159265f};
  constexpr int kRows = 6, kCols = 9;
  HostMatrix values(kRows, kCols, 11);
  fill_random(values.view(), 4);
  for (std::size_t i = 0; i < specials.size(); ++i) {
    values.set(1 + static_cast<int>(i) / 5, 2 + static_cast<int>(i) % 5, specials[i]);
  }
  DeviceMatrix src(kRows, kCols, 11);
  src.upload(values.view());
  DeviceMatrixBf16 dst(kRows, kCols, 12);
  // Rows 1..5, columns 2..6: the specials and some random values, in views whose stride
  // is not their width.
  round_to_bf16(src.view().sub(1, 2, 5, 5), dst.view().sub(1, 2, 5, 5));
  std::vector<bf16> elements;
  const MatrixBf16 rounded = host_view(elements, kRows, kCols, 12);
  copy_2d(whole_rows(rounded), whole_rows(dst.view()), cudaMemcpyDeviceToHost);  // padding too
  for (int i = 0; i < kRows; ++i) {
    for (int j = 0; j < 12; ++j) {
      CAPTURE(i, j);
      const bool inside = i >= 1 && j >= 2 && j < 7;
      if (!inside) {
        REQUIRE(__bfloat16_as_ushort(rounded.get(i, j)) == 0xFFFF);  // still poisoned
        continue;
      }
      const float value = values.get(i, j);
      CAPTURE(value);
      const bf16 want = __float2bfloat16_rn(value);
      if (std::isnan(value)) {
        REQUIRE(std::isnan(__bfloat162float(rounded.get(i, j))));
      } else {
        REQUIRE(__bfloat16_as_ushort(rounded.get(i, j)) == __bfloat16_as_ushort(want));
      }
    }
  }
  // The ties and the overflow, spelled out, so the host's rounding is not the only witness.
  REQUIRE(__bfloat16_as_ushort(rounded.get(1, 5)) == __bfloat16_as_ushort(__float2bfloat16_rn(1.0f)));          // tie down
  REQUIRE(__bfloat16_as_ushort(rounded.get(1, 6)) == __bfloat16_as_ushort(__float2bfloat16_rn(1.0f + 0x1p-6f)));  // tie up
  REQUIRE(std::isinf(__bfloat162float(rounded.get(3, 3))));  // FLT_MAX
}

TEST_CASE("widen_to_float is exact for every BF16 bit pattern", "[gpu][bf16]") {
  // 65536 patterns: 256 rows of 256, in strided views.
  std::vector<bf16> elements;
  const MatrixBf16 patterns = host_view(elements, 256, 256, 260);
  for (int i = 0; i < 256; ++i) {
    for (int j = 0; j < 256; ++j) {
      patterns.set(i, j, __ushort_as_bfloat16(static_cast<unsigned short>(i << 8 | j)));
    }
  }
  DeviceMatrixBf16 src(256, 256, 260);
  src.upload(patterns);
  DeviceMatrix dst(256, 256, 257);
  widen_to_float(src.view(), dst.view());
  HostMatrix widened(256, 256, 257);
  copy_2d(whole_rows(widened.view()), whole_rows(dst.view()), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; ++i) {
    for (int j = 0; j < 256; ++j) {
      const float got = widened.get(i, j);
      std::uint32_t got_bits;
      std::memcpy(&got_bits, &got, sizeof got_bits);
      CAPTURE(i, j);
      // A BF16 is the top half of a float: widening appends 16 zero bits, NaNs included.
      if (std::isnan(__bfloat162float(patterns.get(i, j)))) {
        REQUIRE(std::isnan(got));
      } else {
        REQUIRE(got_bits == static_cast<std::uint32_t>(i << 8 | j) << 16);
      }
    }
  }
  REQUIRE(padding_is_poisoned(widened.view()));
}

TEST_CASE("tensor bench checks cuBLAS BF16 and FP32 on the same inputs",
          "[gpu][cublas][bf16]") {
  RunOptions options = gpu_run_defaults();
  options.repeats = Repeats{1, 2};
  Report report("test", "", "");
  const GemmShape shape{33, 17, 65};
  TensorGemmBench bench(shape, options);
  REQUIRE(bench.a().height == 33);
  REQUIRE(bench.a().width == 65);
  REQUIRE(bench.b().width == 17);
  CublasGemm cublas;
  bench.run(report, "cuBLAS BF16 as a stage", Role::stage,
            [&](MatrixBf16 a, MatrixBf16 b, Matrix c) { cublas(a, b, c); });
  bench.run_float(report, "cuBLAS SGEMM on the rounded inputs", Role::baseline,
                  [&](Matrix a, Matrix b, Matrix c) { cublas(a, b, c); });
  bench.run_cublas(report);
  REQUIRE(report.measurements().size() == 3);
  for (const Measurement& row : report.measurements()) {
    INFO(row.variant << ": " << row.check.summary());
    REQUIRE(row.check.ok);
    REQUIRE(row.check.checked == 33 * 17);
    REQUIRE(row.work == 2.0 * 33 * 17 * 65);
  }
  const Measurement& ceiling = report.measurements().back();
  REQUIRE(ceiling.variant == "cuBLAS BF16 (FP32 accumulate)");
  REQUIRE(ceiling.role == Role::ceiling);

  // The bound each row was checked against is pinned: tensor_gemm_gamma(K) (gemm_gamma(K) for
  // the FP32 row) times sum_k |a_ik b_kj| at its worst element, from the same rounded inputs
  // made here on the host, so a bench whose bound were loosened would fail this.
  HostMatrix a_values(33, 65);
  HostMatrix b_values(65, 17);
  fill_random(a_values.view(), options.seed);  // as TensorGemmBench makes them
  fill_random(b_values.view(), options.seed + 1);
  Bf16Operand a_rounded(std::move(a_values));
  Bf16Operand b_rounded(std::move(b_values));
  const Matrix a = a_rounded.widened_host();
  const Matrix b = b_rounded.widened_host();
  for (const Measurement& row : report.measurements()) {
    INFO(row.variant);
    const CheckResult& check = row.check;
    REQUIRE(check.row >= 0);
    double magnitude = 0;
    for (int k = 0; k < 65; ++k) {
      magnitude += std::fabs(static_cast<double>(a.data[check.row * a.stride + k]) *
                             b.data[k * b.stride + check.col]);
    }
    const double gamma = row.role == Role::baseline ? gemm_gamma(65) : tensor_gemm_gamma(65);
    REQUIRE(check.bound == Approx(gamma * magnitude).epsilon(1e-12));
  }
}

TEST_CASE("the tensor bound fails an element a few products off", "[gpu][cublas][bf16]") {
  // The bound must be able to fail: three average products too many at the last element
  // (an edge tile) exceed tensor_gemm_gamma(K) * magnitude while 3 / K > K * 2^-22.
  CublasGemm cublas;
  for (const int k : {1, 65, 1024}) {
    CAPTURE(k);
    HostMatrix a_values(17, k);
    HostMatrix b_values(k, 9);
    fill_random(a_values.view(), 5);
    fill_random(b_values.view(), 6);
    Bf16Operand a(std::move(a_values));
    Bf16Operand b(std::move(b_values));
    DeviceMatrix c_dev(17, 9);
    cublas(a.rounded(), b.rounded(), c_dev.view());
    const auto check = [&] {
      return check_gemm_on_device(a.widened(), b.widened(), c_dev.view(), a.widened_host(),
                                  b.widened_host(), tensor_gemm_gamma(k));
    };
    const CheckResult good = check();
    INFO(good.summary());
    REQUIRE(good.ok);

    HostMatrix c(17, 9);
    c_dev.download(c.view());
    const GemmReference ref = reference_gemm(a.widened_host(), b.widened_host());
    const double term = ref.magnitude[16 * 9 + 8] / k;
    c.set(16, 8, static_cast<float>(c.get(16, 8) + 3 * term));
    c_dev.upload(c.view());
    const CheckResult bad = check();
    INFO(bad.summary());
    REQUIRE_FALSE(bad.ok);
    REQUIRE(bad.row == 16);
    REQUIRE(bad.col == 8);
    REQUIRE(bad.bound == Approx(tensor_gemm_gamma(k) * ref.magnitude[16 * 9 + 8]));
  }
}

TEST_CASE("require_hopper accepts sm_90 only and names any other GPU", "[gpu]") {
  require_device();
  const int capability = compute_capability();
  if (capability == 90) {
    REQUIRE_NOTHROW(require_hopper());
  } else {
    REQUIRE_THROWS_AS(require_hopper(), UnsupportedGpuError);
    REQUIRE_THROWS_WITH(require_hopper(),
                        Catch::StartsWith("needs sm_90a for TMA and wgmma") &&
                            Catch::EndsWith("this GPU is sm_" + std::to_string(capability)));
  }
}

// LADDER_TEST_COMPUTE_CAPABILITY makes this GPU pass for an older one (the older_gpu tests of
// tests/CMakeLists.txt rely on it), and never for a newer one.
TEST_CASE("a stand-in compute capability can only be older", "[gpu]") {
  require_device();
  const int actual = compute_capability();
  struct StandIn {
    explicit StandIn(const char* value) { setenv("LADDER_TEST_COMPUTE_CAPABILITY", value, 1); }
    ~StandIn() { unsetenv("LADDER_TEST_COMPUTE_CAPABILITY"); }
  };
  {
    const StandIn older("70");
    REQUIRE(compute_capability() == std::min(actual, 70));
    REQUIRE_THROWS_AS(require_bf16_tensor_cores(), UnsupportedGpuError);
    REQUIRE_THROWS_WITH(require_bf16_tensor_cores(),
                        "needs sm_80 for BF16 tensor cores (wmma, mma.sync); this GPU is sm_" +
                            std::to_string(std::min(actual, 70)));
    REQUIRE_THROWS_AS(require_hopper(), UnsupportedGpuError);
  }
  {
    const StandIn newer("999");
    REQUIRE(compute_capability() == actual);
  }
  {
    const StandIn mistyped("8.0");
    REQUIRE_THROWS_AS(compute_capability(), UsageError);
  }
  REQUIRE(compute_capability() == actual);
}

TEST_CASE("a tensor map refuses what TMA cannot copy before the driver", "[common][tma]") {
  // Addresses only, never dereferenced: the checks look at nothing else.
  const auto at = [](std::uintptr_t address) { return reinterpret_cast<bf16*>(address); };
  const MatrixBf16 good{200, 300, 208, at(4096)};
  const auto refused = [](const MatrixBf16& m, int box_cols, int box_rows) {
    REQUIRE_THROWS_AS(make_tensor_map_2d(m, box_cols, box_rows), std::invalid_argument);
    REQUIRE_THROWS_WITH(make_tensor_map_2d(m, box_cols, box_rows),
                        Catch::Contains("allows_16_bytes"));
  };
  refused(MatrixBf16{200, 300, 204, at(4096)}, 64, 128);  // a stride of 408 bytes
  refused(MatrixBf16{200, 300, 208, at(4098)}, 64, 128);  // 2 bytes past a boundary
  // One row and one column into `good`: whole 16-byte rows, a base 418 bytes in.
  refused(MatrixBf16{5, 5, 208, at(4096 + 2 * (208 + 1))}, 64, 128);
  refused(good, 72, 128);   // a box row past the 128-byte swizzle
  refused(good, 12, 128);   // a box row not whole 16-byte chunks
  refused(good, 0, 128);
  refused(good, 64, 0);
  refused(good, 64, 257);   // TMA's largest box is 256 a side
  REQUIRE_THROWS_WITH(make_tensor_map_2d(MatrixBf16{200, 300, 204, at(4096)}, 64, 128),
                      Catch::Contains("300x200 BF16 view (stride 204 elements"));

  // FP32 maps to load from (A and B^T of stage 20's variant): the same rules in 4-byte
  // elements. Maps to store through (C) need rows of whole 16-byte chunks too, since TMA
  // stores write whole chunks: allows_tma_store.
  float* const c = reinterpret_cast<float*>(std::uintptr_t{4096});
  float* const c_off = reinterpret_cast<float*>(std::uintptr_t{4100});
  REQUIRE(allows_tma_store(Matrix{200, 300, 204, c}));
  REQUIRE_FALSE(allows_tma_store(Matrix{201, 300, 204, c}));  // a last chunk of one float
  REQUIRE_FALSE(allows_tma_store(Matrix{200, 300, 202, c}));  // rows 8 bytes off
  REQUIRE_FALSE(allows_tma_store(Matrix{200, 300, 204, c_off}));
  const auto refused_load = [](const Matrix& m, int box_cols, int box_rows) {
    REQUIRE_THROWS_AS(make_tensor_map_2d(m, box_cols, box_rows), std::invalid_argument);
    REQUIRE_THROWS_WITH(make_tensor_map_2d(m, box_cols, box_rows),
                        Catch::Contains("allows_float4"));
  };
  refused_load(Matrix{200, 300, 202, c}, 32, 64);      // rows 8 bytes off
  refused_load(Matrix{200, 300, 204, c_off}, 32, 64);  // a base 4 bytes past a boundary
  refused_load(Matrix{200, 300, 204, c}, 36, 64);      // 144 bytes: past the 128-byte swizzle
  refused_load(Matrix{200, 300, 204, c}, 6, 64);       // 24 bytes: not whole chunks
  const auto refused_store = [](const Matrix& m, int box_cols, int box_rows) {
    REQUIRE_THROWS_AS(make_store_tensor_map_2d(m, box_cols, box_rows), std::invalid_argument);
    REQUIRE_THROWS_WITH(make_store_tensor_map_2d(m, box_cols, box_rows),
                        Catch::Contains("allows_tma_store"));
  };
  refused_store(Matrix{201, 300, 204, c}, 32, 64);  // loadable, but a store would overrun
  refused_store(Matrix{200, 300, 202, c}, 32, 64);
}

TEST_CASE("tensor maps encode aligned BF16 views and larger boxes",
          "[gpu][sm90][tma]") {
  DeviceMatrixBf16 buffer(300, 200, 208);
  const MatrixBf16 whole = buffer.view();
  const MatrixBf16 inner = whole.sub(8, 8, 3, 5);  // 8 rows and 8 columns in: 16-byte aligned
  REQUIRE(allows_16_bytes(inner));
  CUtensorMap maps[3];
  REQUIRE_NOTHROW(maps[0] = make_tensor_map_2d(whole, 64, 128));
  REQUIRE_NOTHROW(maps[1] = make_tensor_map_2d(inner, 64, 256));
  REQUIRE_NOTHROW(maps[2] = make_tensor_map_2d(inner, 8, 1));
  // Different views and boxes, different maps: the encoder wrote something of each.
  REQUIRE(std::memcmp(&maps[0], &maps[1], sizeof(CUtensorMap)) != 0);
  REQUIRE(std::memcmp(&maps[1], &maps[2], sizeof(CUtensorMap)) != 0);
  DeviceMatrix c(70, 36, 40);  // C: 36 columns, 9 whole chunks a row
  REQUIRE_NOTHROW(make_tensor_map_2d(c.view(), 32, 64));
  REQUIRE_NOTHROW(make_store_tensor_map_2d(c.view(), 32, 64));
}
