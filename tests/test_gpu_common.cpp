// The GPU half of common/: device owners, the on-device GEMM check, the cuBLAS ceiling.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>

#include "01_cpu_naive/kernel.hpp"
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_probe.hpp"
#include "common/errors.hpp"
#include "common/grid.hpp"
#include "common/harness/cublas_gemm.hpp"
#include "common/harness/gemm_bench.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/transpose_bench.hpp"
#include "common/harness/verify.hpp"
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
  device.download(back.view());
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 10; ++j) REQUIRE(std::isnan(back.view().get(i, j)));

  device.upload(host.view());
  DeviceMatrix moved = std::move(device);
  REQUIRE(device.view().data == nullptr);
  moved.download(back.view());
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

TEST_CASE("cuBLAS in FP32 keeps the bits that TF32 would drop", "[gpu][cublas]") {
  // 1 + 2^-12 is exact in FP32, while TF32 keeps 10 mantissa bits and rounds it to 1. Every
  // partial sum of k * (1 + 2^-12), k <= 256, is exact in FP32, in any order: pure FP32
  // gives exactly 256 + 2^-4 for each element, a TF32 product 256.
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
  cublas(a_dev.view(), b_dev.view(), c_dev.view());
  HostMatrix c(kSize, kSize);
  c_dev.download(c.view());
  for (int i = 0; i < kSize; ++i)
    for (int j = 0; j < kSize; ++j) REQUIRE(c.get(i, j) == 256.0f + 0x1p-4f);
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
      HostMatrix c = test::poisoned_matrix(shape.m, shape.n, padding);
      c_dev.download(c.view());
      const CheckResult check = check_gemm(c.view(), reference_gemm(a.view(), b.view()), shape.k);
      INFO(check.summary());
      REQUIRE(check.ok);
      REQUIRE(padding_is_poisoned(c.view()));
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
