// Stages 01 and 02 against the double-precision reference.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "01_cpu_naive/kernel.hpp"
#include "02_cpu_reordered/kernel.hpp"
#include "common/harness/verify.hpp"
#include "test_support.hpp"

using namespace ladder;

namespace {

template <class Gemm>
void check_against_reference(Gemm gemm) {
  for (const auto& shape : test::gemm_cases()) {
    for (const int padding : test::paddings()) {
      for (const unsigned seed : test::seeds()) {
        CAPTURE(test::describe(shape), padding, seed);
        HostMatrix a = test::random_matrix(shape.m, shape.k, padding, seed);
        HostMatrix b = test::random_matrix(shape.k, shape.n, padding, seed + 100);
        HostMatrix c = test::poisoned_matrix(shape.m, shape.n, padding);
        gemm(a.view(), b.view(), c.view());
        const CheckResult check = check_gemm(c.view(), reference_gemm(a.view(), b.view()), shape.k);
        INFO(check.summary());
        REQUIRE(check.ok);
        REQUIRE(check.checked == static_cast<long long>(shape.m) * shape.n);
        REQUIRE(padding_is_poisoned(c.view()));
      }
    }
  }
}

}  // namespace

TEST_CASE("01 naive i-j-k matches the reference on every shape", "[cpu][stage01]") {
  check_against_reference(gemm_cpu_naive);
}

TEST_CASE("01 naive i-j-k with B pre-transposed on every shape",
          "[cpu][stage01]") {
  // B^T with its own padding (a stride that is not its width), so a loop that read it
  // with B's stride, or read the padding, would fail.
  check_against_reference([](Matrix a, Matrix b, Matrix c) {
    HostMatrix bt = test::poisoned_matrix(b.width, b.height, 5);
    transpose_cpu(b, bt.view());
    gemm_cpu_naive_pretransposed(a, bt.view(), c);
  });
}

TEST_CASE("01 transpose_cpu writes B^T and nothing else", "[cpu][stage01]") {
  for (const auto& shape : test::gemm_cases()) {
    for (const int padding : test::paddings()) {
      CAPTURE(test::describe(shape), padding);
      HostMatrix b = test::random_matrix(shape.k, shape.n, padding, 7);
      HostMatrix bt = test::poisoned_matrix(shape.n, shape.k, padding);
      transpose_cpu(b.view(), bt.view());
      for (int k = 0; k < shape.k; ++k) {
        for (int j = 0; j < shape.n; ++j) REQUIRE(bt.get(j, k) == b.get(k, j));
      }
      REQUIRE(padding_is_poisoned(bt.view()));
    }
  }
}

TEST_CASE("02 reordered i-k-j matches the reference on every shape", "[cpu][stage02]") {
  check_against_reference(gemm_cpu_reordered);
}

TEST_CASE("01 and 02 refuse operands whose shapes do not multiply", "[cpu][stage01][stage02]") {
  HostMatrix a(3, 4);
  HostMatrix b(5, 2);  // needs 4 rows
  HostMatrix c(3, 2);
  HostMatrix bt(2, 5);
  REQUIRE_THROWS_AS(gemm_cpu_naive(a.view(), b.view(), c.view()), std::invalid_argument);
  REQUIRE_THROWS_AS(gemm_cpu_naive_pretransposed(a.view(), bt.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(gemm_cpu_reordered(a.view(), b.view(), c.view()), std::invalid_argument);
}
