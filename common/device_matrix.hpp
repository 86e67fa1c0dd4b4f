// Matrices the GPU reaches: DeviceMatrix in GPU memory, PinnedMatrix in page-locked host
// memory. RAII and move-only; both hand out Matrix views.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

class DeviceMatrix {
 public:
  // height rows of width columns; stride 0 means stride == width. Starts poisoned.
  // Throws UsageError when the GPU has not enough memory for it.
  DeviceMatrix(int height, int width, int stride = 0);
  ~DeviceMatrix();
  DeviceMatrix(DeviceMatrix&& other) noexcept;
  DeviceMatrix& operator=(DeviceMatrix&& other) noexcept;
  DeviceMatrix(const DeviceMatrix&) = delete;
  DeviceMatrix& operator=(const DeviceMatrix&) = delete;

  Matrix view() const { return view_; }

  // Copies the width x height elements between this matrix and a host view of the same
  // shape, any stride; nothing outside the two views, not even their padding, is read or
  // written (copy_2d in common/device_memory.hpp; whole_rows there copies the padding too).
  void upload(Matrix host);
  void download(Matrix host) const;

  // Every byte kPoisonByte (common/matrix_owners.hpp), which makes every float a NaN, padding
  // included: the same bits as the host's poison() (common/harness/fill.hpp).
  void poison();

 private:
  Matrix view_;
};

// Page-locked host memory: the copy engines move it directly, so cudaMemcpyAsync returns at
// once and the copy runs beside kernels. From pageable memory (HostMatrix) the driver stages
// each copy through a buffer of its own and returns only when the host side is done: no
// overlap. Unpadded (stride == width); its contents start undefined.
class PinnedMatrix {
 public:
  // Throws UsageError when the host cannot pin that much memory.
  PinnedMatrix(int height, int width);
  ~PinnedMatrix();
  PinnedMatrix(PinnedMatrix&& other) noexcept;
  PinnedMatrix& operator=(PinnedMatrix&& other) noexcept;
  PinnedMatrix(const PinnedMatrix&) = delete;
  PinnedMatrix& operator=(const PinnedMatrix&) = delete;

  Matrix view() const { return view_; }

 private:
  Matrix view_;
};

}  // namespace ladder
