// The FP8 ground, on the host (no GPU): the E4M3 format as cuda_fp8.h converts to and from it,
// the per-tensor and per-block scales (NaN, infinities, zeros and tiny values included), the
// quantisation reference and the double reference product.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "common/host_matrix.hpp"
#include "common/host_matrix_fp8.hpp"
#include "common/matrix_fp8.hpp"
#include "test_support.hpp"

using namespace ladder;

namespace {

fp8_e4m3 from_bits(int bits) {
  fp8_e4m3 value;
  value.__x = static_cast<__nv_fp8_storage_t>(bits);
  return value;
}

// The smallest positive float, a denormal: 2^-149.
const float kDenormal = std::numeric_limits<float>::denorm_min();

}  // namespace

TEST_CASE("E4M3: every finite code round-trips, 448 is the largest, NaN has two codes",
          "[common][fp8]") {
  int finite = 0;
  float largest = 0.0f;
  for (int bits = 0; bits < 256; ++bits) {
    CAPTURE(bits);
    const float value = static_cast<float>(from_bits(bits));
    if (std::isnan(value)) {
      REQUIRE((bits & 0x7F) == 0x7F);  // S.1111.111: no infinities, one NaN per sign
      continue;
    }
    ++finite;
    largest = std::fmax(largest, std::fabs(value));
    REQUIRE(static_cast<int>(fp8_e4m3(value).__x) == bits);
  }
  REQUIRE(finite == 254);
  REQUIRE(largest == kE4m3Max);
}

TEST_CASE("E4M3 conversion rounds to nearest, ties to even, and saturates", "[common][fp8]") {
  // Between 1 and 2 the spacing is 2^-3: 1 + 2^-4 is halfway between 1 and 1.125.
  REQUIRE(static_cast<float>(fp8_e4m3(1.0625f)) == 1.0f);      // tie: to the even mantissa
  REQUIRE(static_cast<float>(fp8_e4m3(1.1875f)) == 1.25f);     // tie: to the even mantissa
  REQUIRE(static_cast<float>(fp8_e4m3(1.07f)) == 1.125f);      // nearer 1.125
  REQUIRE(static_cast<float>(fp8_e4m3(464.0f)) == kE4m3Max);   // past the top: saturated
  REQUIRE(static_cast<float>(fp8_e4m3(-1e30f)) == -kE4m3Max);
  REQUIRE(static_cast<float>(fp8_e4m3(INFINITY)) == kE4m3Max);
  REQUIRE(static_cast<float>(fp8_e4m3(std::ldexp(1.0f, -9))) == std::ldexp(1.0f, -9));  // the
  REQUIRE(static_cast<float>(fp8_e4m3(std::ldexp(1.0f, -11))) == 0.0f);  // smallest, and below
}

TEST_CASE("The product of two E4M3 values is exact in FP32", "[common][fp8]") {
  long long pairs = 0;
  for (int x = 0; x < 256; ++x) {
    const float a = static_cast<float>(from_bits(x));
    if (std::isnan(a)) continue;
    for (int y = 0; y < 256; ++y) {
      const float b = static_cast<float>(from_bits(y));
      if (std::isnan(b)) continue;
      ++pairs;
      if (static_cast<double>(a * b) != static_cast<double>(a) * b) FAIL(a << " * " << b);
    }
  }
  REQUIRE(pairs == 254 * 254);
}

TEST_CASE("The per-tensor scale maps the largest magnitude onto 448", "[common][fp8]") {
  HostMatrix m = test::random_matrix(37, 53, 3, 11);
  m.view().set(5, 7, -3.5f);  // random values are within [-1, 1): this one is the largest
  REQUIRE(largest_magnitude(m.view()) == 3.5f);
  const float scale = e4m3_scale(3.5f);
  REQUIRE(scale == kE4m3Max / 3.5f);
  HostMatrixFp8 q_codes(37, 53);
  const MatrixFp8 q = q_codes.view();
  quantize_e4m3(m.view(), scale, q);
  REQUIRE(static_cast<float>(q.get(5, 7)) == -kE4m3Max);
  // Every normal value keeps 4 significant bits: within half a step, 2^-4 of itself.
  for (int row = 0; row < 37; ++row) {
    for (int col = 0; col < 53; ++col) {
      const double x = static_cast<double>(m.view().get(row, col)) * scale;
      if (std::fabs(x) < std::ldexp(1.0, -6)) continue;  // E4M3's normals start at 2^-6
      REQUIRE(std::fabs(static_cast<float>(q.get(row, col)) - x) <= std::ldexp(std::fabs(x), -4));
    }
  }
  REQUIRE(e4m3_scale(0.0f) == 1.0f);
  REQUIRE_THROWS_AS(e4m3_scale(-1.0f), std::invalid_argument);
  REQUIRE_THROWS_AS(e4m3_scale(NAN), std::invalid_argument);
  REQUIRE_THROWS_AS(e4m3_scale(INFINITY), std::invalid_argument);
  m.view().set(1, 1, NAN);
  REQUIRE_THROWS_AS(largest_magnitude(m.view()), std::invalid_argument);
  REQUIRE_THROWS_AS(quantize_e4m3(m.view(), scale, q.sub(0, 0, 36, 53)), std::invalid_argument);
}

TEST_CASE("The largest magnitude: 0 for zeros, denormals kept, NaN and infinities refused",
          "[common][fp8]") {
  HostMatrix m(3, 5);  // zeros
  m.set(2, 4, -0.0f);
  REQUIRE(largest_magnitude(m.view()) == 0.0f);
  m.set(0, 0, kDenormal);
  m.set(1, 2, -3 * kDenormal);  // the largest: negative, and far below FLT_MIN
  REQUIRE(largest_magnitude(m.view()) == 3 * kDenormal);
  // No scale brings these into range: each refused wherever it sits.
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), INFINITY, -INFINITY}) {
    CAPTURE(bad);
    for (const auto& [row, col] : {std::pair{0, 0}, std::pair{1, 2}, std::pair{2, 4}}) {
      CAPTURE(row, col);
      const float kept = m.get(row, col);
      m.set(row, col, bad);
      REQUIRE_THROWS_AS(largest_magnitude(m.view()), std::invalid_argument);
      m.set(row, col, kept);
    }
  }
}

TEST_CASE("The per-tensor scale is capped at FLT_MAX where 448 / largest overflows",
          "[common][fp8]") {
  // 448 / x exceeds FLT_MAX for x below 448 / FLT_MAX, about 1.3e-36: the denormals and the
  // smallest normal floats alike.
  for (const float tiny : {kDenormal, 1e-40f, FLT_MIN, 1e-37f, 1e-36f}) {
    CAPTURE(tiny);
    REQUIRE(e4m3_scale(tiny) == FLT_MAX);
  }
  REQUIRE(e4m3_scale(2e-36f) == kE4m3Max / 2e-36f);  // about 2.2e38: no cap
  REQUIRE(e4m3_scale(2e-36f) < FLT_MAX);
  // Why the cap: an infinite scale would make the zeros of such a tensor NaN (0 x infinity)
  // and every other element 448. FLT_MAX keeps zeros zero, signs included, and the tiny
  // values in proportion, as far up as a float goes.
  HostMatrix m(1, 4);
  m.set(0, 1, -0.0f);
  m.set(0, 2, 1e-38f);   // times FLT_MAX: 3.40..., to the nearest E4M3 value 3.5
  m.set(0, 3, -1e-40f);  // -0.0340...: -9 x 2^-8 (E4M3's step is 2^-8 in [2^-5, 2^-4))
  const float scale = e4m3_scale(largest_magnitude(m.view()));
  REQUIRE(scale == FLT_MAX);
  HostMatrixFp8 codes(1, 4);
  quantize_e4m3(m.view(), scale, codes.view());
  REQUIRE(codes.view().get(0, 0).__x == 0x00);  // +0
  REQUIRE(codes.view().get(0, 1).__x == 0x80);  // -0
  REQUIRE(static_cast<float>(codes.view().get(0, 2)) == 3.5f);
  REQUIRE(static_cast<float>(codes.view().get(0, 3)) == -9 * std::ldexp(1.0f, -8));
}

TEST_CASE("Quantisation saturates at 448, infinities included, and keeps NaN and signed zeros",
          "[common][fp8]") {
  // Times the scale 2: 300 and 1e30 lie past 448, 224 lands on it.
  const float values[] = {300.0f, -300.0f, 224.0f, 1e30f, INFINITY, -INFINITY,
                          std::numeric_limits<float>::quiet_NaN(), -0.0f, kDenormal};
  const float want[] = {kE4m3Max, -kE4m3Max, kE4m3Max, kE4m3Max, kE4m3Max, -kE4m3Max, NAN,
                        -0.0f, 0.0f};
  const int count = static_cast<int>(std::size(values));
  HostMatrix m(1, count);
  for (int col = 0; col < count; ++col) m.set(0, col, values[col]);
  HostMatrixFp8 codes(1, count);
  quantize_e4m3(m.view(), 2.0f, codes.view());
  for (int col = 0; col < count; ++col) {
    CAPTURE(values[col]);
    const float got = static_cast<float>(codes.view().get(0, col));
    if (std::isnan(want[col])) {
      REQUIRE(std::isnan(got));
    } else {
      REQUIRE(got == want[col]);
      REQUIRE(std::signbit(got) == std::signbit(want[col]));
    }
  }
}

TEST_CASE("Per-block scales: 1 for a zero block, FLT_MAX for a tiny one, NaN and infinity refused",
          "[common][fp8]") {
  // 2 x 300 in blocks of 1 x 128: three blocks a row, the last 44 wide.
  HostMatrix m(2, 300);
  m.set(0, 130, -1e-40f);  // row 0: zeros; denormals; 2 at the largest
  m.set(0, 200, kDenormal);
  m.set(0, 299, -2.0f);
  m.set(1, 5, kE4m3Max);  // row 1: 448 at the largest; 1e-37 (normal, capped); -0 alone
  m.set(1, 140, 1e-37f);
  m.set(1, 256, -0.0f);
  const BlockScales blocks = e4m3_block_scales(m.view(), 1, 128);
  REQUIRE(blocks.blocks_across == 3);
  REQUIRE(blocks.scales == std::vector<float>{1.0f, FLT_MAX, kE4m3Max / 2.0f,  //
                                              1.0f, FLT_MAX, 1.0f});
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), INFINITY, -INFINITY}) {
    CAPTURE(bad);
    m.set(1, 299, bad);
    REQUIRE_THROWS_AS(e4m3_block_scales(m.view(), 1, 128), std::invalid_argument);
    REQUIRE_THROWS_AS(e4m3_block_scales(m.view(), 128, 128), std::invalid_argument);
  }
  REQUIRE_THROWS_AS(e4m3_block_scales(m.view(), 1, 0), std::invalid_argument);
}

TEST_CASE("The FP8 reference product applies both scales to exact products", "[common][fp8]") {
  // A 2x3 and a 3x2 of E4M3 values with scales 2 and 8: C = (A B) / 16.
  HostMatrixFp8 a_codes(2, 3);
  const MatrixFp8 a = a_codes.view();
  HostMatrixFp8 b_codes(3, 2);
  const MatrixFp8 b = b_codes.view();
  const float a_values[2][3] = {{448.0f, -1.5f, 0.25f}, {3.0f, 0.0f, -448.0f}};
  const float b_values[3][2] = {{1.0f, -2.0f}, {0.125f, 448.0f}, {6.0f, 0.5f}};
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 3; ++col) a.set(row, col, fp8_e4m3(a_values[row][col]));
  }
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 2; ++col) b.set(row, col, fp8_e4m3(b_values[row][col]));
  }
  const std::vector<double> c = reference_product_fp8(a, 2.0f, b, 8.0f);
  REQUIRE(c.size() == 4);
  REQUIRE(c[0] == (448.0 - 1.5 * 0.125 + 0.25 * 6.0) / 16);
  REQUIRE(c[1] == (448.0 * -2.0 - 1.5 * 448.0 + 0.25 * 0.5) / 16);
  REQUIRE(c[2] == (3.0 - 448.0 * 6.0) / 16);
  REQUIRE(c[3] == (3.0 * -2.0 - 448.0 * 0.5) / 16);
  REQUIRE_THROWS_AS(reference_product_fp8(a, 1.0f, a, 1.0f), std::invalid_argument);
}

TEST_CASE("Per-block scales keep an outlier's cost inside its block", "[common][fp8]") {
  // E4M3's normal values span 2^-6 to 448, about 2^15. An outlier 1000 times the rest only
  // shifts them within that span (the same 4 significant bits); one 10^5 times pushes them
  // below it, among the subnormals, whose spacing is a fixed 2^-9.
  HostMatrix m = test::random_matrix(64, 300, 0, 12);
  m.view().set(0, 5, 1e5f);  // the rest lie within [-1, 1)
  const BlockScales blocks = e4m3_block_scales(m.view(), 1, 128);  // A's blocks in DeepSeek-V3
  REQUIRE(blocks.blocks_across == 3);  // 128, 128 and 44 columns
  REQUIRE(blocks.scales.size() == 64 * 3);
  REQUIRE(blocks.at(0, 5) == e4m3_scale(1e5f));
  REQUIRE(blocks.at(0, 299) == e4m3_scale(largest_magnitude(m.view().sub(0, 256, 1, 44))));
  const float tensor_scale = e4m3_scale(largest_magnitude(m.view()));
  HostMatrixFp8 per_tensor_codes(64, 300);
  const MatrixFp8 per_tensor = per_tensor_codes.view();
  HostMatrixFp8 per_block_codes(64, 300);
  const MatrixFp8 per_block = per_block_codes.view();
  quantize_e4m3(m.view(), tensor_scale, per_tensor);
  quantize_e4m3(m.view(), blocks, per_block);
  // The error of each value once scaled back, outside the outlier's block: per tensor, the
  // values fall among E4M3's subnormals; per block, each keeps its 4 significant bits.
  double tensor_error = 0.0;
  double block_error = 0.0;
  for (int row = 0; row < 64; ++row) {
    for (int col = 0; col < 300; ++col) {
      if (row == 0 && col < 128) continue;
      const double x = m.view().get(row, col);
      const double tensor_wrong =
          std::fabs(static_cast<float>(per_tensor.get(row, col)) / tensor_scale - x);
      const double block_wrong =
          std::fabs(static_cast<float>(per_block.get(row, col)) / blocks.at(row, col) - x);
      tensor_error += tensor_wrong;
      block_error += block_wrong;
      // Half a step: 2^-4 of a normal value, half the subnormal spacing (2^-10) below them.
      const double half_step =
          std::ldexp(std::fabs(x), -4) + std::ldexp(1.0, -10) / blocks.at(row, col);
      REQUIRE(block_wrong <= half_step);
    }
  }
  CAPTURE(tensor_error, block_error);
  REQUIRE(block_error * 8 < tensor_error);
  REQUIRE_THROWS_AS(e4m3_block_scales(m.view(), 0, 128), std::invalid_argument);
}

TEST_CASE("With equal block scales the block reference is the per-tensor one", "[common][fp8]") {
  HostMatrix a_real = test::random_matrix(5, 260, 0, 13);
  HostMatrix b_real = test::random_matrix(260, 7, 0, 14);
  HostMatrixFp8 a_codes(5, 260);
  const MatrixFp8 a = a_codes.view();
  HostMatrixFp8 b_codes(260, 7);
  const MatrixFp8 b = b_codes.view();
  quantize_e4m3(a_real.view(), 4.0f, a);
  quantize_e4m3(b_real.view(), 0.5f, b);
  BlockScales a_blocks{1, 128, 3, std::vector<float>(5 * 3, 4.0f)};
  BlockScales b_blocks{128, 128, 1, std::vector<float>(3, 0.5f)};
  const std::vector<double> per_tensor = reference_product_fp8(a, 4.0f, b, 0.5f);
  const std::vector<double> per_block = reference_product_fp8(a, a_blocks, b, b_blocks);
  REQUIRE(per_block.size() == per_tensor.size());
  for (std::size_t i = 0; i < per_tensor.size(); ++i) {
    CAPTURE(i);
    REQUIRE(per_block[i] == Approx(per_tensor[i]).epsilon(1e-12).margin(1e-12));
  }
  // One block of A's first row twice as large: its share of row 0 halves.
  a_blocks.scales[1] = 8.0f;
  const std::vector<double> halved = reference_product_fp8(a, a_blocks, b, b_blocks);
  double expected = 0.0;
  for (int k = 0; k < 260; ++k) {
    const double factor = (k >= 128 && k < 256) ? 8.0 : 4.0;
    expected += static_cast<float>(a.get(0, k)) / factor * static_cast<float>(b.get(k, 0)) / 0.5;
  }
  REQUIRE(halved[0] == Approx(expected).epsilon(1e-12).margin(1e-12));
}

TEST_CASE("An E4M3 host matrix starts at zero and transposes", "[common][fp8]") {
  HostMatrixFp8 m(2, 3);
  const MatrixFp8 view = m.view();
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 3; ++col) {
      REQUIRE(static_cast<float>(view.get(row, col)) == 0.0f);
      view.set(row, col, fp8_e4m3(static_cast<float>(row * 3 + col)));
    }
  }
  HostMatrixFp8 t = transposed(view);
  REQUIRE(t.view().height == 3);
  REQUIRE(t.view().width == 2);
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 3; ++col) {
      REQUIRE(static_cast<float>(t.view().get(col, row)) == static_cast<float>(row * 3 + col));
    }
  }
}
