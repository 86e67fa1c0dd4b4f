// An operand as TMA can read it. A tensor map steps from row to row by a multiple of 16 bytes,
// from a 16-byte-aligned start; a view whose rows are not so (an odd K in BF16, a K of 4095 in
// FP32, a view shifted by one element) is copied into rows of whole 128-byte lines, and the
// kernel reads the copy. One pass over the operand's bytes buys the TMA kernel instead of a
// fallback that loads element by element.
//
//   caller's rows: |a0 a1 ... a3499|b0 b1 ... (7,000 bytes apart: no multiple of 16)
//   the copy:      |a0 a1 ... a3499 ....pad....|b0 b1 ... (7,040 bytes: 55 lines of 128)
//
// The copy is allocated, made and freed on the default stream, where the product is queued too,
// so it is freed only after the product has read it. The default pool keeps what is freed (its
// release threshold raised), so that a repeated call does not map the memory again each time.
#pragma once

#include <climits>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include <cuda_runtime.h>

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"

namespace ladder {

template <class View>
class TmaReadable {
 public:
  using Element = std::remove_pointer_t<decltype(View::data)>;

  explicit TmaReadable(View m) : view_(m) {
    constexpr int kPerLine = 128 / sizeof(Element);
    constexpr int kPerSixteen = 16 / sizeof(Element);
    if (m.empty() || (reinterpret_cast<std::uintptr_t>(m.data) % 16 == 0 &&
                      m.stride % kPerSixteen == 0)) {
      return;
    }
    // Whole lines, or whole 16 bytes where lines would break the int rule (common/matrix.hpp).
    const long long rows = static_cast<long long>(m.height) + kEdgeRows;
    view_.stride = (m.width + kPerLine - 1) / kPerLine * kPerLine;
    if (view_.stride * rows > INT_MAX) {
      view_.stride = (m.width + kPerSixteen - 1) / kPerSixteen * kPerSixteen;
    }
    if (view_.stride * rows > INT_MAX) {
      throw std::invalid_argument("an operand's copy in 16-byte rows would break the int rule");
    }
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    cudaMemPool_t pool = nullptr;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t keep = UINT64_MAX;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    void* copy = nullptr;
    const std::size_t pitch = sizeof(Element) * static_cast<std::size_t>(view_.stride);
    CUDA_CHECK(cudaMallocAsync(&copy, pitch * static_cast<std::size_t>(m.height), nullptr));
    copy_.reset(static_cast<Element*>(copy));
    view_.data = copy_.get();
    CUDA_CHECK(cudaMemcpy2DAsync(view_.data, pitch, m.data, sizeof(Element) * m.stride,
                                 sizeof(Element) * m.width, m.height, cudaMemcpyDeviceToDevice,
                                 nullptr));
  }

  View view() const { return view_; }
  bool copied() const { return copy_ != nullptr; }

 private:
  struct FreeOnStream {
    void operator()(Element* data) const { cudaFreeAsync(data, nullptr); }
  };
  View view_;
  std::unique_ptr<Element, FreeOnStream> copy_;
};

}  // namespace ladder
