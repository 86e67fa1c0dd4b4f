// Shapes and helpers shared by the CPU and GPU stage tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/harness/fill.hpp"
#include "common/host_matrix.hpp"

namespace ladder::test {

struct GemmCase {
  int m;
  int n;
  int k;
};

// Shapes that catch real bugs: the degenerate ones, sizes just around
// every tile size we use (8, 16, 32), tall-skinny and wide-short.
inline std::vector<GemmCase> gemm_cases() {
  return {{1, 1, 1},    {7, 5, 1},     {3, 5, 7},     {17, 33, 9},  {15, 15, 15},
          {16, 16, 16}, {17, 17, 17},  {31, 31, 31},  {32, 32, 32}, {33, 33, 33},
          {31, 33, 65}, {127, 129, 33}, {129, 127, 64}, {200, 3, 70}, {3, 200, 70},
          {1, 130, 257}, {130, 1, 257}};
}

inline std::string describe(const GemmCase& c) {
  return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k);
}

// Strides to try: the plain one, and one with padding that must be neither read nor
// written (fill_random puts NaN in input padding; poison puts NaN in output padding).
inline std::vector<int> paddings() { return {0, 3}; }

inline std::vector<unsigned> seeds() { return {1, 2, 3}; }

inline HostMatrix random_matrix(int height, int width, int padding, unsigned seed) {
  HostMatrix m(height, width, width + padding);
  fill_random(m.view(), seed);
  return m;
}

inline HostMatrix poisoned_matrix(int height, int width, int padding) {
  HostMatrix m(height, width, width + padding);
  poison(m.view());
  return m;
}

// How many elements of `buffer` (its whole stride) outside the rows x cols view at
// (row_offset, col_offset) no longer hold the poison bits: what a kernel wrote where it must not.
inline long long written_outside(Matrix buffer, int row_offset, int col_offset, int rows, int cols) {
  long long written = 0;
  for (int row = 0; row < buffer.height; ++row) {
    for (int col = 0; col < buffer.stride; ++col) {
      const bool inside = row >= row_offset && row < row_offset + rows && col >= col_offset &&
                          col < col_offset + cols;
      std::uint32_t bits;
      std::memcpy(&bits, &buffer.data[row * buffer.stride + col], sizeof bits);
      if (!inside && bits != 0xFFFFFFFFu) ++written;
    }
  }
  return written;
}

}  // namespace ladder::test
