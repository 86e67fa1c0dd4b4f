#include "common/harness/fill.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "common/matrix_owners.hpp"

namespace ladder {
namespace {

// SplitMix64: a small, well-mixed hash, so each element is independent of the others.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

void fill_random(Matrix m, std::uint64_t seed) {
  const std::uint64_t stream = mix(seed);
  for (int row = 0; row < m.height; ++row) {
    for (int col = 0; col < m.stride; ++col) {
      if (col >= m.width) {
        m.set(row, col, std::numeric_limits<float>::quiet_NaN());
        continue;
      }
      const std::uint64_t bits =
          mix(stream ^ (static_cast<std::uint64_t>(row) << 32 | static_cast<std::uint32_t>(col)));
      // 24 random bits make every value exact in float: k / 2^23 - 1 for k in [0, 2^24).
      m.set(row, col, static_cast<float>(bits >> 40) * 0x1p-23f - 1.0f);
    }
  }
}

void round_to_tf32(Matrix m) {
  for (int row = 0; row < m.height; ++row) {
    for (int col = 0; col < m.width; ++col) {
      const float value = m.get(row, col);
      if (!std::isfinite(value)) continue;
      std::uint32_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      // Drop the low 13 of float's 23 mantissa bits, rounding to nearest, ties to the even
      // neighbour (a carry into the exponent is the right result too).
      bits = (bits + 0xFFFu + ((bits >> 13) & 1u)) & ~0x1FFFu;
      float rounded;
      std::memcpy(&rounded, &bits, sizeof rounded);
      m.set(row, col, rounded);
    }
  }
}

void poison(Matrix m) {
  float poisoned;
  std::memset(&poisoned, kPoisonByte, sizeof poisoned);
  for (int row = 0; row < m.height; ++row) {
    for (int col = 0; col < m.stride; ++col) m.set(row, col, poisoned);
  }
}

HostMatrix random_host_matrix(int height, int width, std::uint64_t seed) {
  HostMatrix m(height, width);
  fill_random(m.view(), seed);
  return m;
}

}  // namespace ladder
