// Part 1's GPU stages against the double-precision CPU reference: every variant, every
// shape of the list, with and without padding, several seeds, NaN-poisoned outputs.
#include <catch2/catch.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "03_gpu_naive/kernel.hpp"
#include "04_gpu_shared_tiled/kernel.hpp"
#include "05_gpu_unrolled/kernel.hpp"
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_memory.hpp"
#include "common/harness/verify.hpp"
#include "test_support.hpp"

using namespace ladder;

namespace {

struct Variant {
  std::string name;
  std::function<void(Matrix a, Matrix b, Matrix c)> launch;
};

// One double-precision reference per (shape, padding, seed), every variant checked
// against it. Inputs carry NaN in their padding and C starts all NaN before each launch,
// so reading past a row's width or leaving an element unwritten fails the check.
void check_against_reference(const std::vector<Variant>& variants) {
  REQUIRE_FALSE(variants.empty());
  for (const auto& shape : test::gemm_cases()) {
    for (const int padding : test::paddings()) {
      for (const unsigned seed : test::seeds()) {
        CAPTURE(test::describe(shape), padding, seed);
        HostMatrix a = test::random_matrix(shape.m, shape.k, padding, seed);
        HostMatrix b = test::random_matrix(shape.k, shape.n, padding, seed + 100);
        const GemmReference want = reference_gemm(a.view(), b.view());
        DeviceMatrix a_device(shape.m, shape.k, a.stride());
        DeviceMatrix b_device(shape.k, shape.n, b.stride());
        DeviceMatrix c_device(shape.m, shape.n, shape.n + padding);
        a_device.upload(a.view());
        b_device.upload(b.view());
        for (const Variant& variant : variants) {
          CAPTURE(variant.name);
          c_device.poison();
          variant.launch(a_device.view(), b_device.view(), c_device.view());
          CUDA_CHECK(cudaDeviceSynchronize());
          HostMatrix c(shape.m, shape.n, shape.n + padding);
          // Whole rows: the padding checked below is the device's.
          copy_2d(whole_rows(c.view()), whole_rows(c_device.view()), cudaMemcpyDeviceToHost);
          const CheckResult check = check_gemm(c.view(), want, shape.k);
          INFO(check.summary());
          REQUIRE(check.ok);
          REQUIRE(check.checked == static_cast<long long>(shape.m) * shape.n);
          REQUIRE(padding_is_poisoned(c.view()));
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("03 naive: both thread mappings and both block sizes",
          "[gpu][stage03]") {
  std::vector<Variant> variants;
  for (const NaiveMapping mapping : {NaiveMapping::rows, NaiveMapping::cols}) {
    for (const int block : {16, 32}) {
      variants.push_back({std::string(mapping == NaiveMapping::rows ? "rows" : "cols") +
                              " block " + std::to_string(block),
                          [mapping, block](Matrix a, Matrix b, Matrix c) {
                            launch_gemm_naive(mapping, block, a, b, c);
                          }});
    }
  }
  check_against_reference(variants);
}

// The --drop-sync kernels are racy on purpose and stay out of here (and of the sanitizer
// runs of this binary).
TEST_CASE("04 shared tiled: square tiles and wide slabs of every size",
          "[gpu][stage04]") {
  std::vector<Variant> variants;
  for (const int tile : {8, 16, 32}) {
    for (const TilePolicy policy : {TilePolicy::square, TilePolicy::wide}) {
      variants.push_back({std::string(policy == TilePolicy::square ? "square" : "wide") +
                              " tile " + std::to_string(tile),
                          [policy, tile](Matrix a, Matrix b, Matrix c) {
                            launch_gemm_tiled(policy, tile, a, b, c);
                          }});
    }
  }
  check_against_reference(variants);
}

TEST_CASE("05 unrolled: every unroll variant of every tile size",
          "[gpu][stage05]") {
  const std::pair<const char*, Unroll> unrolls[] = {{"unroll 1", Unroll::none},
                                                    {"manual x4", Unroll::manual4},
                                                    {"unroll full", Unroll::full},
                                                    {"compiler default", Unroll::compiler}};
  std::vector<Variant> variants;
  for (const int tile : {8, 16, 32}) {
    for (const auto& [name, unroll] : unrolls) {
      variants.push_back({std::string(name) + " tile " + std::to_string(tile),
                          [unroll = unroll, tile](Matrix a, Matrix b, Matrix c) {
                            launch_gemm_unrolled(unroll, tile, a, b, c);
                          }});
    }
  }
  check_against_reference(variants);
}

TEST_CASE("GEMM launchers reject mismatched shapes before touching the GPU",
          "[stage03][stage04][stage05]") {
  const Matrix a{4, 3, 4, nullptr};  // 3 x 4
  const Matrix b{5, 4, 5, nullptr};  // 4 x 5
  const Matrix c{5, 3, 5, nullptr};  // 3 x 5
  const Matrix b_too_short{5, 3, 5, nullptr};
  const Matrix c_wrong{4, 3, 4, nullptr};
  for (const auto& [bad_b, bad_c] : {std::pair{b_too_short, c}, std::pair{b, c_wrong}}) {
    REQUIRE_THROWS_AS(launch_gemm_naive(NaiveMapping::cols, 16, a, bad_b, bad_c),
                      std::invalid_argument);
    REQUIRE_THROWS_AS(launch_gemm_tiled(TilePolicy::square, 16, a, bad_b, bad_c),
                      std::invalid_argument);
    REQUIRE_THROWS_AS(launch_gemm_unrolled(Unroll::compiler, 16, a, bad_b, bad_c),
                      std::invalid_argument);
  }
}

TEST_CASE("GEMM launchers name a tile they have no kernel for", "[stage04][stage05]") {
  // The tile is checked before anything reaches the GPU, so null data is fine here.
  const Matrix a{4, 4, 4, nullptr};
  using Catch::Contains;
  REQUIRE_THROWS_WITH(launch_gemm_tiled(TilePolicy::square, 12, a, a, a),
                      Contains("tile must be 8, 16 or 32, got 12"));
  REQUIRE_THROWS_WITH(launch_gemm_tiled(TilePolicy::wide, 64, a, a, a), Contains("got 64"));
  REQUIRE_THROWS_WITH(launch_gemm_tiled_racy(DroppedSync::after_load, 4, a, a, a),
                      Contains("got 4"));
  REQUIRE_THROWS_WITH(launch_gemm_unrolled(Unroll::manual4, 24, a, a, a), Contains("got 24"));
}
