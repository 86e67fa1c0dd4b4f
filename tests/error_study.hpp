// What the error studies (tensor_error_study.cpp, fp8_error_study.cpp) share: the four families
// of inputs they measure each matrix product on (random signs, no cancellation so that
// truncations add up, large cancellation, and one large term that every later product is
// aligned to), and the ratio of a check's worst error to its bound.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/harness/fill.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"

namespace ladder::test {

template <class Change>
inline void change_each(HostMatrix& m, Change change) {
  for (int i = 0; i < m.height(); ++i)
    for (int j = 0; j < m.width(); ++j) m.set(i, j, change(m.get(i, j)));
}

// The stages' inputs: uniform in [-1, 1).
inline void uniform(HostMatrix& a, HostMatrix& b, std::uint64_t seed) {
  fill_random(a.view(), seed);
  fill_random(b.view(), seed + 1);
}

// No cancellation: every truncation of a partial sum errs the same way, so they add up.
inline void all_positive(HostMatrix& a, HostMatrix& b, std::uint64_t seed) {
  uniform(a, b, seed);
  const auto magnitude = [](float x) { return std::fabs(x); };
  change_each(a, magnitude);
  change_each(b, magnitude);
}

// Large cancellation: the last K/2 products are the first K/2 with the opposite sign, so the
// sum is one product (K odd) or zero while the magnitude grows with K, and the accumulator
// holds the whole first half before it cancels.
inline void cancelling(HostMatrix& a, HostMatrix& b, std::uint64_t seed) {
  all_positive(a, b, seed);
  const int depth = a.width();
  const int half = depth / 2;
  for (int p = 0; p < half; ++p) {
    const int mirror = depth - half + p;
    for (int i = 0; i < a.height(); ++i) a.set(i, mirror, a.get(i, p));
    for (int j = 0; j < b.width(); ++j) b.set(mirror, j, -b.get(p, j));
  }
}

// One large term: all products positive, in [1/4, 1), but the first, 2^12 times larger (its
// factors scaled by 2^6, exactly). First, so that the accumulator is large while every other
// product is added: each is aligned to its exponent and truncated there.
inline void one_large_term(HostMatrix& a, HostMatrix& b, std::uint64_t seed) {
  uniform(a, b, seed);
  const auto half_to_one = [](float x) { return 0.75f + 0.25f * x; };  // [0.5, 1)
  change_each(a, half_to_one);
  change_each(b, half_to_one);
  for (int i = 0; i < a.height(); ++i) a.set(i, 0, a.get(i, 0) * 64);
  for (int j = 0; j < b.width(); ++j) b.set(0, j, b.get(0, j) * 64);
}

struct Family {
  const char* name;
  void (*make)(HostMatrix& a, HostMatrix& b, std::uint64_t seed);
};

inline const Family kInputFamilies[] = {
    {"uniform [-1,1)", uniform},
    {"all positive [0,1)", all_positive},
    {"large cancellation", cancelling},
    {"one large term", one_large_term},
};

// error / bound at the check's worst element; a NaN is infinitely far.
inline double ratio_to_bound(const CheckResult& check) {
  if (std::isnan(check.error)) return INFINITY;
  if (check.bound > 0) return check.error / check.bound;
  return check.error > 0 ? INFINITY : 0;
}

}  // namespace ladder::test
