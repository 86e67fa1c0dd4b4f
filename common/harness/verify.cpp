#include "common/harness/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace ladder {

GemmReference reference_gemm(Matrix a, Matrix b) {
  GemmReference ref;
  ref.rows = a.height;
  ref.cols = b.width;
  ref.value.assign(static_cast<std::size_t>(ref.rows) * ref.cols, 0.0);
  ref.magnitude.assign(ref.value.size(), 0.0);
  // i-k-j order: the inner loop walks rows of B and of the result with unit stride.
  for (int i = 0; i < a.height; ++i) {
    double* value = &ref.value[static_cast<std::size_t>(i) * ref.cols];
    double* magnitude = &ref.magnitude[static_cast<std::size_t>(i) * ref.cols];
    for (int k = 0; k < a.width; ++k) {
      const double a_ik = a.get(i, k);
      const float* b_row = b.data + static_cast<std::size_t>(k) * b.stride;
      for (int j = 0; j < b.width; ++j) {
        const double product = a_ik * b_row[j];
        value[j] += product;
        magnitude[j] += std::fabs(product);
      }
    }
  }
  return ref;
}

double gemm_gamma(int k) { return 2.0 * k * std::ldexp(1.0, -24); }

double tensor_gemm_gamma(int k) { return 2.0 * gemm_gamma(k); }

double fp8_gemm_gamma(int k, int window) {
  const int blocks = (std::min(window, k) + 31) / 32;
  return tensor_gemm_gamma(k) + blocks * 34.0 * std::ldexp(1.0, -13);
}

namespace {

// Keeps the element with the largest error relative to its bound; a NaN is worst of all.
struct WorstTracker {
  CheckResult result;
  double worst_excess = -1.0;

  void add(int row, int col, double got, double want, double bound, bool pass) {
    ++result.checked;
    const double error = std::fabs(got - want);
    double excess = std::isnan(error) ? INFINITY : (bound > 0 ? error / bound : error);
    if (!pass && excess <= 1.0) excess = 1.0 + error;  // a failure always outranks a pass
    if (!pass) result.ok = false;
    if (excess > worst_excess) {
      worst_excess = excess;
      result.row = row;
      result.col = col;
      result.got = got;
      result.want = want;
      result.error = error;
      result.bound = bound;
    }
  }
};

CheckResult shape_mismatch() {
  CheckResult result;
  result.ok = false;
  return result;
}

}  // namespace

CheckResult check_gemm(Matrix c, const GemmReference& ref, int k) {
  if (c.height != ref.rows || c.width != ref.cols) return shape_mismatch();
  WorstTracker worst;
  const double gamma = gemm_gamma(k);
  for (int i = 0; i < c.height; ++i) {
    for (int j = 0; j < c.width; ++j) {
      const std::size_t at = static_cast<std::size_t>(i) * ref.cols + j;
      const double got = c.get(i, j);
      const double bound = gamma * ref.magnitude[at];
      const bool pass = std::fabs(got - ref.value[at]) <= bound;  // false for NaN
      worst.add(i, j, got, ref.value[at], bound, pass);
    }
  }
  return worst.result;
}

namespace {

// Compares out(i, j) with want(i, j) bit for bit: copies and transposes move bits unchanged.
template <class Want>
CheckResult check_exact(Matrix out, Want want) {
  WorstTracker worst;
  for (int i = 0; i < out.height; ++i) {
    for (int j = 0; j < out.width; ++j) {
      const float got = out.get(i, j);
      const float expected = want(i, j);
      const bool same = std::memcmp(&got, &expected, sizeof got) == 0;
      worst.add(i, j, got, expected, 0.0, same);
    }
  }
  return worst.result;
}

}  // namespace

CheckResult check_transpose(Matrix in, Matrix out) {
  if (out.height != in.width || out.width != in.height) return shape_mismatch();
  return check_exact(out, [&](int i, int j) { return in.get(j, i); });
}

CheckResult check_copy(Matrix in, Matrix out) {
  if (out.height != in.height || out.width != in.width) return shape_mismatch();
  return check_exact(out, [&](int i, int j) { return in.get(i, j); });
}

bool padding_is_poisoned(Matrix m) {
  for (int row = 0; row < m.height; ++row) {
    for (int col = m.width; col < m.stride; ++col) {
      if (!std::isnan(m.get(row, col))) return false;
    }
  }
  return true;
}

std::string CheckResult::summary() const {
  char text[256];
  if (row < 0) {
    std::snprintf(text, sizeof text, "%s: nothing comparable (shape mismatch)",
                  ok ? "ok" : "FAILED");
  } else {
    std::snprintf(text, sizeof text,
                  "%s: %lld element%s, worst at (%d, %d): got %.9g, want %.9g, error %.3g, "
                  "bound %.3g",
                  ok ? "ok" : "FAILED", checked, checked == 1 ? "" : "s", row, col, got, want,
                  error, bound);
  }
  return text;
}

}  // namespace ladder
