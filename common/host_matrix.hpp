// A matrix in host memory: owns its elements, hands out Matrix views. Move-only, like the
// device owners: a copy of a large matrix should never happen by accident.
#pragma once

#include <cstddef>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_owners.hpp"

namespace ladder {

class HostMatrix {
 public:
  // height rows of width columns; stride 0 means stride == width. Throws UsageError for a
  // shape check_matrix_shape rejects.
  HostMatrix(int height, int width, int stride = 0)
      : width_(width), height_(height), stride_(stride == 0 ? width : stride) {
    check_matrix_shape(height_, width_, stride_);
    elements_.resize(static_cast<std::size_t>(stride_) * height_);
  }
  HostMatrix(HostMatrix&&) noexcept = default;
  HostMatrix& operator=(HostMatrix&&) noexcept = default;
  HostMatrix(const HostMatrix&) = delete;
  HostMatrix& operator=(const HostMatrix&) = delete;

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

}  // namespace ladder
