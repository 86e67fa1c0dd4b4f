// The Matrix view shared by every stage, the struct of the source articles:
// row-major, element (row, col) at data[row * stride + col]. And the one shape rule its
// owners enforce.
#pragma once

#if defined(__CUDACC__)
#define LADDER_HOST_DEVICE __host__ __device__
#else
#define LADDER_HOST_DEVICE
#endif

namespace ladder {

// A view: it does not own its data. Owners (HostMatrix, DeviceMatrix, PinnedMatrix) hand
// views out. Every owner keeps stride * height below 2^31, so int index arithmetic cannot
// overflow.
struct Matrix {
  int width = 0;         // columns
  int height = 0;        // rows
  int stride = 0;        // elements from the start of one row to the next, >= width
  float* data = nullptr;

  LADDER_HOST_DEVICE float get(int row, int col) const { return data[row * stride + col]; }
  LADDER_HOST_DEVICE void set(int row, int col, float value) const {
    data[row * stride + col] = value;
  }
  // The rows x cols block whose top-left element is (row, col); same stride.
  LADDER_HOST_DEVICE Matrix sub(int row, int col, int rows, int cols) const {
    return Matrix{cols, rows, stride, data + row * stride + col};
  }
};

// Throws UsageError unless a height x width matrix with this stride is valid and its
// stride * height stays below 2^31 elements (so kernels can index with int). Every owner
// calls it before allocating; the options call it before anything is allocated.
void check_matrix_shape(int height, int width, int stride);

}  // namespace ladder
