#include "common/hopper/tma_readable.hpp"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include <cuda_runtime.h>

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"

namespace ladder {

void FreeOnDefaultStream::operator()(void* data) const { cudaFreeAsync(data, nullptr); }

DefaultStreamBuffer copy_rows_for_tma(const void* data, int width, int height, int& stride,
                                      int element_bytes) {
  const int per_line = 128 / element_bytes;
  const int per_sixteen = 16 / element_bytes;
  const bool aligned =
      reinterpret_cast<std::uintptr_t>(data) % 16 == 0 && stride % per_sixteen == 0;
  if (aligned || width == 0 || height == 0) return nullptr;
  const long long rows = static_cast<long long>(height) + kEdgeRows;
  int copy_stride = (width + per_line - 1) / per_line * per_line;
  if (copy_stride * rows > INT_MAX) {
    copy_stride = (width + per_sixteen - 1) / per_sixteen * per_sixteen;
  }
  if (copy_stride * rows > INT_MAX) {
    throw std::invalid_argument("an operand's copy in 16-byte rows would break the int rule");
  }
  // The default pool keeps what is freed (its release threshold raised), so that a repeated
  // call does not map the memory again each time.
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaMemPool_t pool = nullptr;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t keep = UINT64_MAX;
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  const std::size_t pitch = static_cast<std::size_t>(element_bytes) * copy_stride;
  void* copy = nullptr;
  CUDA_CHECK(cudaMallocAsync(&copy, pitch * static_cast<std::size_t>(height), nullptr));
  DefaultStreamBuffer buffer(copy);
  CUDA_CHECK(cudaMemcpy2DAsync(copy, pitch, data, static_cast<std::size_t>(element_bytes) * stride,
                               static_cast<std::size_t>(element_bytes) * width, height,
                               cudaMemcpyDeviceToDevice, nullptr));
  stride = copy_stride;
  return buffer;
}

}  // namespace ladder
