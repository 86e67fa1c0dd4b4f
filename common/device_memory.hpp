// What the device owners (DeviceMatrix, PinnedMatrix, DeviceMatrixBf16, DeviceMatrixFp8) share,
// whatever their element type: the bytes a view spans, the copies between host and device
// views, what running out of memory means, and the owner of the narrow types' matrices.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"
#include "common/matrix.hpp"
#include "common/matrix_owners.hpp"

namespace ladder {

// Every row, padding included. View: Matrix or MatrixBf16.
template <class View>
std::size_t bytes_of(const View& m) {
  return static_cast<std::size_t>(m.stride) * m.height * sizeof(*m.data);
}

// Copies the width x height elements between views of the same shape, whatever their strides,
// and nothing else. Not whole rows even where the strides are equal: a view may be a sub-view
// whose rows end before its stride does, past which lie another view's elements, and, after
// its last row, possibly the end of its allocation.
template <class View>
void copy_2d(View to, View from, cudaMemcpyKind kind) {
  if (to.width != from.width || to.height != from.height) {
    throw std::invalid_argument("host and device matrices differ in shape");
  }
  const std::size_t element = sizeof(*to.data);
  CUDA_CHECK(cudaMemcpy2D(to.data, to.stride * element, from.data, from.stride * element,
                          to.width * element, to.height, kind));
}

// The same rows, padding included (width = stride): for copying an owner's whole buffer with
// copy_2d, as tests do to see that its padding is still poisoned. Only for an owner's whole
// view: a sub-view's padding is its neighbours' elements.
template <class View>
View whole_rows(View m) {
  m.width = m.stride;
  return m;
}

// Running out of memory is a problem too large for this machine (a usage error, exit 2),
// not a failure of the program.
inline void check_allocation(cudaError_t status, const char* memory, int height, int width) {
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw UsageError(std::string("not enough ") + memory + " for a " + std::to_string(height) +
                     "x" + std::to_string(width) + " matrix");
  }
  CUDA_CHECK(status);
}

// DeviceMatrix for narrower elements: View is MatrixBf16 (DeviceMatrixBf16) or MatrixFp8
// (DeviceMatrixFp8). RAII, move-only, hands out View views; starts poisoned (every byte
// kPoisonByte, padding included: a NaN in both types, so an element a kernel fails to write
// fails every check). Throws UsageError when the GPU has not enough memory for it.
template <class View>
class DeviceElements {
 public:
  using Element = std::remove_pointer_t<decltype(View::data)>;

  // height rows of width columns; stride 0 means stride == width.
  DeviceElements(int height, int width, int stride = 0)
      : width_(width), height_(height), stride_(stride == 0 ? width : stride) {
    check_matrix_shape(height_, width_, stride_);
    Element* data = nullptr;
    check_allocation(cudaMalloc(&data, bytes_of(View{width_, height_, stride_, nullptr})),
                     "GPU memory", height, width);
    data_.reset(data);  // owned from here on: freed if poison() throws
    poison();
  }
  DeviceElements(DeviceElements&&) noexcept = default;
  DeviceElements& operator=(DeviceElements&&) noexcept = default;
  DeviceElements(const DeviceElements&) = delete;
  DeviceElements& operator=(const DeviceElements&) = delete;

  // Null data once moved from.
  View view() const { return View{width_, height_, stride_, data_.get()}; }

  // Copies between host and device views of the same shape, as DeviceMatrix's.
  void upload(View host) { copy_2d(view(), host, cudaMemcpyHostToDevice); }
  void download(View host) const { copy_2d(host, view(), cudaMemcpyDeviceToHost); }

  void poison() { CUDA_CHECK(cudaMemset(data_.get(), kPoisonByte, bytes_of(view()))); }

 private:
  struct Free {
    // A destructor must not throw; a failure here would only repeat an earlier one.
    void operator()(Element* data) const { cudaFree(data); }
  };
  int width_;
  int height_;
  int stride_;
  std::unique_ptr<Element, Free> data_;
};

}  // namespace ladder
