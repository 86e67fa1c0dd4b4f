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

}  // namespace ladder
