#include "common/device_matrix.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder {
namespace {

std::size_t bytes_of(const Matrix& m) {
  return static_cast<std::size_t>(m.stride) * m.height * sizeof(float);
}

void copy_2d(Matrix to, Matrix from, cudaMemcpyKind kind) {
  if (to.width != from.width || to.height != from.height) {
    throw std::invalid_argument("host and device matrices differ in shape");
  }
  const int columns = to.stride == from.stride ? to.stride : to.width;
  CUDA_CHECK(cudaMemcpy2D(to.data, to.stride * sizeof(float), from.data,
                          from.stride * sizeof(float), columns * sizeof(float), to.height, kind));
}

// Running out of memory is a problem too large for this machine (a usage error, exit 2),
// not a failure of the program.
void check_allocation(cudaError_t status, const char* memory, int height, int width) {
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw UsageError(std::string("not enough ") + memory + " for a " + std::to_string(height) +
                     "x" + std::to_string(width) + " matrix");
  }
  CUDA_CHECK(status);
}

}  // namespace

DeviceMatrix::DeviceMatrix(int height, int width, int stride) {
  view_ = Matrix{width, height, stride == 0 ? width : stride, nullptr};
  check_matrix_shape(view_.height, view_.width, view_.stride);
  check_allocation(cudaMalloc(&view_.data, bytes_of(view_)), "GPU memory", height, width);
  try {
    poison();
  } catch (...) {
    cudaFree(view_.data);  // the destructor does not run for a constructor that throws
    throw;
  }
}

DeviceMatrix::~DeviceMatrix() {
  // A destructor must not throw; a failure here would only repeat an earlier one.
  if (view_.data != nullptr) cudaFree(view_.data);
}

DeviceMatrix::DeviceMatrix(DeviceMatrix&& other) noexcept
    : view_(std::exchange(other.view_, Matrix{})) {}

DeviceMatrix& DeviceMatrix::operator=(DeviceMatrix&& other) noexcept {
  if (this != &other) {
    if (view_.data != nullptr) cudaFree(view_.data);
    view_ = std::exchange(other.view_, Matrix{});
  }
  return *this;
}

void DeviceMatrix::upload(Matrix host) { copy_2d(view_, host, cudaMemcpyHostToDevice); }

void DeviceMatrix::download(Matrix host) const { copy_2d(host, view_, cudaMemcpyDeviceToHost); }

void DeviceMatrix::poison() { CUDA_CHECK(cudaMemset(view_.data, kPoisonByte, bytes_of(view_))); }

PinnedMatrix::PinnedMatrix(int height, int width) : view_{width, height, width, nullptr} {
  check_matrix_shape(height, width, width);
  check_allocation(cudaMallocHost(&view_.data, bytes_of(view_)), "pinned host memory", height,
                   width);
}

PinnedMatrix::~PinnedMatrix() {
  if (view_.data != nullptr) cudaFreeHost(view_.data);
}

PinnedMatrix::PinnedMatrix(PinnedMatrix&& other) noexcept
    : view_(std::exchange(other.view_, Matrix{})) {}

PinnedMatrix& PinnedMatrix::operator=(PinnedMatrix&& other) noexcept {
  if (this != &other) {
    if (view_.data != nullptr) cudaFreeHost(view_.data);
    view_ = std::exchange(other.view_, Matrix{});
  }
  return *this;
}

}  // namespace ladder
