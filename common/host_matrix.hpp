// A matrix in host memory: owns its elements, hands out Matrix views.
#pragma once

#include <vector>

#include "common/matrix.hpp"

namespace ladder {

class HostMatrix {
 public:
  // height rows of width columns; stride 0 means stride == width.
  HostMatrix(int height, int width, int stride = 0);

  Matrix view() { return Matrix{width_, height_, stride_, elements_.data()}; }
  int width() const { return width_; }
  int height() const { return height_; }
  int stride() const { return stride_; }
  float get(int row, int col) const { return elements_[index(row, col)]; }
  void set(int row, int col, float value) { elements_[index(row, col)] = value; }

 private:
  std::size_t index(int row, int col) const {
    return static_cast<std::size_t>(row) * stride_ + col;
  }
  int width_;
  int height_;
  int stride_;
  std::vector<float> elements_;
};

// Throws UsageError unless a height x width matrix with this stride is valid and its
// stride * height stays below 2^31 elements (so kernels can index with int).
void check_matrix_shape(int height, int width, int stride);

}  // namespace ladder
