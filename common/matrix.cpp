#include "common/matrix.hpp"

#include <climits>
#include <stdexcept>
#include <string>

#include "common/errors.hpp"
#include "common/matrix_owners.hpp"

namespace ladder {
namespace {

// The int-index rule, for a stride and height already known not to be negative. In long
// long: height + kEdgeRows itself overflows int for heights near INT_MAX.
bool indexes_fit_int(int height, int stride) {
  return static_cast<long long>(stride) * (static_cast<long long>(height) + kEdgeRows) <= INT_MAX;
}

}  // namespace

void check_matrix_shape(int height, int width, int stride) {
  if (height <= 0 || width <= 0) {
    throw UsageError("matrix sizes must be positive, got " + std::to_string(height) + "x" +
                     std::to_string(width));
  }
  if (stride < width) {
    throw UsageError("stride " + std::to_string(stride) + " is smaller than the width " +
                     std::to_string(width));
  }
  if (!indexes_fit_int(height, stride)) {
    throw UsageError("a " + std::to_string(height) + "x" + std::to_string(width) +
                     " matrix is too large: this tutorial keeps every matrix, and the " +
                     std::to_string(kEdgeRows) +
                     " rows past it that edge tiles address, under 2^31 elements (8 GiB) so "
                     "that kernels can index with int");
  }
}

void check_view(const Matrix& m) {
  if (m.width < 0 || m.height < 0 || m.stride < m.width || !indexes_fit_int(m.height, m.stride)) {
    throw std::invalid_argument(
        "a " + std::to_string(m.height) + "x" + std::to_string(m.width) + " view with stride " +
        std::to_string(m.stride) +
        " breaks the rule that kernels index with int: sizes not negative, stride >= width, "
        "and stride * (height + " + std::to_string(kEdgeRows) + ") below 2^31 elements");
  }
}

void check_gemm_shapes(const Matrix& a, const Matrix& b, const Matrix& c) {
  check_view(a);
  check_view(b);
  check_view(c);
  if (a.width != b.height || c.height != a.height || c.width != b.width) {
    throw std::invalid_argument("c = a * b needs a.width == b.height and c a.height x b.width");
  }
}

}  // namespace ladder
