#include "common/hopper/tma_readable.hpp"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <cuda_runtime.h>

#include "common/cuda_check.hpp"
#include "common/matrix_bf16.hpp"
#include "common/matrix_fp8.hpp"

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

// Frees device memory on the default stream, after the work queued there before it.
struct FreeOnDefaultStream {
  void operator()(void* data) const { cudaFreeAsync(data, nullptr); }
};

// A copy of an operand's rows and its stride in elements.
struct RowsCopy {
  std::unique_ptr<void, FreeOnDefaultStream> data;
  int stride = 0;
};

// Where the rows at `data` (width x height elements of element_bytes, `stride` apart) are not
// whole 16 bytes: their copy in rows of whole 128-byte lines (of 16 bytes, where lines would
// break the int rule of common/matrix.hpp), queued on the default stream, from the copies' own
// pool. Else no copy (data null).
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

// The view m, or its copy in rows TMA can read, which this object owns.
template <class View>
class TmaReadable {
 public:
  explicit TmaReadable(View m) : view_(m) {
    RowsCopy copy = copy_rows_for_tma(m.data, m.width, m.height, m.stride, sizeof(*m.data));
    if (copy.data == nullptr) return;
    view_.data = static_cast<decltype(m.data)>(copy.data.get());
    view_.stride = copy.stride;
    copy_ = std::move(copy.data);
  }
  View view() const { return view_; }
  bool copied() const { return copy_ != nullptr; }

 private:
  View view_;
  std::unique_ptr<void, FreeOnDefaultStream> copy_;
};

// Where C is empty or K is 0, writes C's zeros (the empty sums) and returns true.
bool write_empty_product(Matrix c, int k) {
  if (c.empty()) return true;
  if (k > 0) return false;
  CUDA_CHECK(cudaMemset2D(c.data, sizeof(float) * c.stride, 0, sizeof(float) * c.width, c.height));
  return true;
}

template <class View>
OperandPath launch_readable(View a, View b, Matrix c, const ReadableLaunch<View>& launch) {
  if (write_empty_product(c, a.width)) return OperandPath::tma;
  const TmaReadable<View> a_rows(a);
  const TmaReadable<View> b_rows(b);
  launch(a_rows.view(), b_rows.view());
  return a_rows.copied() || b_rows.copied() ? OperandPath::tma_after_copy : OperandPath::tma;
}

}  // namespace

OperandPath launch_on_readable_rows(Matrix a, Matrix b, Matrix c,
                                    const ReadableLaunch<Matrix>& launch) {
  return launch_readable(a, b, c, launch);
}
OperandPath launch_on_readable_rows(MatrixBf16 a, MatrixBf16 b, Matrix c,
                                    const ReadableLaunch<MatrixBf16>& launch) {
  return launch_readable(a, b, c, launch);
}
OperandPath launch_on_readable_rows(MatrixFp8 a, MatrixFp8 b, Matrix c,
                                    const ReadableLaunch<MatrixFp8>& launch) {
  return launch_readable(a, b, c, launch);
}

}  // namespace ladder
