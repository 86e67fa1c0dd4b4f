// What the device owners (DeviceMatrix, PinnedMatrix, DeviceMatrixBf16) share, whatever their
// element type: the bytes a view spans, the copies between host and device views, and what
// running out of memory means.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder {

// Every row, padding included. View: Matrix or MatrixBf16.
template <class View>
std::size_t bytes_of(const View& m) {
  return static_cast<std::size_t>(m.stride) * m.height * sizeof(*m.data);
}

// Copies between views of the same shape. With equal strides whole rows travel, padding
// included; otherwise only the width x height elements.
template <class View>
void copy_2d(View to, View from, cudaMemcpyKind kind) {
  if (to.width != from.width || to.height != from.height) {
    throw std::invalid_argument("host and device matrices differ in shape");
  }
  const std::size_t element = sizeof(*to.data);
  const int columns = to.stride == from.stride ? to.stride : to.width;
  CUDA_CHECK(cudaMemcpy2D(to.data, to.stride * element, from.data, from.stride * element,
                          columns * element, to.height, kind));
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

}  // namespace ladder
