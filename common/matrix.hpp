// The Matrix view shared by every stage, the struct of the source articles: row-major, element
// (row, col) at data[row * stride + col]. And the one shape rule its owners enforce.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define LADDER_HOST_DEVICE __host__ __device__
#else
#define LADDER_HOST_DEVICE
#endif

namespace ladder {

// A view: it does not own its data; owners (HostMatrix, DeviceMatrix, PinnedMatrix) hand views
// out (common/matrix_owners.hpp). The int-index rule: stride * (height + kEdgeRows) < 2^31, so
// int index arithmetic cannot overflow, even for the rows past the edge that a tile overhanging
// the matrix computes addresses for (and never reads).
struct Matrix {
  int width = 0;         // columns
  int height = 0;        // rows
  int stride = 0;        // elements from the start of one row to the next, >= width
  float* data = nullptr;

  LADDER_HOST_DEVICE float get(int row, int col) const { return data[row * stride + col]; }
  LADDER_HOST_DEVICE void set(int row, int col, float value) const {
    data[row * stride + col] = value;
  }
  // No elements: a launcher returns at once (a grid of 0 blocks would not launch).
  LADDER_HOST_DEVICE bool empty() const { return width == 0 || height == 0; }
  // The rows x cols block whose top-left element is (row, col); same stride.
  LADDER_HOST_DEVICE Matrix sub(int row, int col, int rows, int cols) const {
    return Matrix{cols, rows, stride, data + row * stride + col};
  }
};

// True when (row, col) with col even starts an 8-byte-aligned pair in every row of c: the
// tensor cores leave each thread pairs of neighbouring elements of C, which go out as a float2.
LADDER_HOST_DEVICE inline bool allows_float2(const Matrix& c) {
  return c.stride % 2 == 0 && reinterpret_cast<std::uintptr_t>(c.data) % 8 == 0;
}

// How far past a matrix's last row a kernel may form an address: the largest block tile of any
// stage (256 rows or columns).
inline constexpr int kEdgeRows = 256;

// Throws std::invalid_argument, naming the rule, unless the view keeps the int-index rule (no
// negative size, stride >= width; empty views pass). A view made by hand can break it, and a
// kernel's int offsets then wrap around without a word: every launcher checks its views first.
void check_view(const Matrix& m);

// Throws std::invalid_argument unless c = a * b is defined (a.width == b.height, c is
// a.height x b.width) and each view passes check_view. Past it, every launcher takes an empty
// C as no work and makes C = 0 for K = 0.
void check_gemm_shapes(const Matrix& a, const Matrix& b, const Matrix& c);

}  // namespace ladder
