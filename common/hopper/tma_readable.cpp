#include "common/hopper/tma_readable.hpp"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>

#include <cuda_runtime.h>

#include "common/cuda_check.hpp"

namespace ladder {
namespace {

// The copies' pool on `device`, made once: it keeps what is freed (its release threshold
// raised), so that a repeated call does not map the memory again, without changing the
// device's default pool, which the caller's own allocations may use.
cudaMemPool_t copy_pool(int device) {
  static std::mutex mutex;
  static std::map<int, cudaMemPool_t> pools;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = pools.find(device);
  if (found != pools.end()) return found->second;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  std::uint64_t keep = UINT64_MAX;
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  pools.emplace(device, pool);
  return pool;
}

}  // namespace

void FreeOnDefaultStream::operator()(void* data) const { cudaFreeAsync(data, nullptr); }

RowsCopy copy_rows_for_tma(const void* data, int width, int height, int stride,
                           int element_bytes) {
  const int per_line = 128 / element_bytes;
  const int per_sixteen = 16 / element_bytes;
  const bool aligned =
      reinterpret_cast<std::uintptr_t>(data) % 16 == 0 && stride % per_sixteen == 0;
  if (aligned || width == 0 || height == 0) return {};
  const long long rows = static_cast<long long>(height) + kEdgeRows;
  int copy_stride = (width + per_line - 1) / per_line * per_line;
  if (copy_stride * rows > INT_MAX) {
    copy_stride = (width + per_sixteen - 1) / per_sixteen * per_sixteen;
  }
  if (copy_stride * rows > INT_MAX) {
    throw std::invalid_argument("an operand's copy in 16-byte rows would break the int rule");
  }
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::size_t pitch = static_cast<std::size_t>(element_bytes) * copy_stride;
  void* copy = nullptr;
  CUDA_CHECK(cudaMallocFromPoolAsync(&copy, pitch * static_cast<std::size_t>(height),
                                     copy_pool(device), nullptr));
  RowsCopy result{std::unique_ptr<void, FreeOnDefaultStream>(copy), copy_stride};
  CUDA_CHECK(cudaMemcpy2DAsync(copy, pitch, data, static_cast<std::size_t>(element_bytes) * stride,
                               static_cast<std::size_t>(element_bytes) * width, height,
                               cudaMemcpyDeviceToDevice, nullptr));
  return result;
}

bool write_empty_product(Matrix c, int k) {
  if (c.empty()) return true;
  if (k > 0) return false;
  CUDA_CHECK(cudaMemset2D(c.data, sizeof(float) * c.stride, 0, sizeof(float) * c.width, c.height));
  return true;
}

}  // namespace ladder
