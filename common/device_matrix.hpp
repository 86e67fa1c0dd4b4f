// A matrix in GPU memory: RAII, move-only, hands out Matrix views for kernels.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

class DeviceMatrix {
 public:
  // height rows of width columns; stride 0 means stride == width. Starts poisoned (NaN).
  // Throws UsageError when the GPU has not enough memory for it.
  DeviceMatrix(int height, int width, int stride = 0);
  ~DeviceMatrix();
  DeviceMatrix(DeviceMatrix&& other) noexcept;
  DeviceMatrix& operator=(DeviceMatrix&& other) noexcept;
  DeviceMatrix(const DeviceMatrix&) = delete;
  DeviceMatrix& operator=(const DeviceMatrix&) = delete;

  Matrix view() const { return view_; }

  // Copies between host and device views of the same shape. With equal strides whole
  // rows travel, padding included; otherwise only the width x height elements.
  void upload(Matrix host);
  void download(Matrix host) const;

  // Every byte 0xFF, which makes every float a NaN, padding included.
  void poison();

 private:
  Matrix view_;
};

}  // namespace ladder
