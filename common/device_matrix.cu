#include "common/device_matrix.hpp"

#include <utility>

#include "common/device_memory.hpp"
#include "common/matrix_owners.hpp"

namespace ladder {

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
