// Stages 01 and 02 against the double-precision reference.
#include <catch2/catch.hpp>

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

TEST_CASE("02 reordered i-k-j matches the reference on every shape", "[cpu][stage02]") {
  check_against_reference(gemm_cpu_reordered);
}
