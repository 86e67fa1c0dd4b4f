// The BF16 operands of Part 4 in GPU memory, and the two conversions between them and FP32
// matrices: rounding (how the programs make BF16 inputs from their FP32 ones) and widening
// (exact, how the checks see the rounded values).
#pragma once

#include <memory>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"

namespace ladder {

// DeviceMatrix for BF16 elements: RAII, move-only, hands out MatrixBf16 views.
class DeviceMatrixBf16 {
 public:
  // height rows of width columns; stride 0 means stride == width. Starts poisoned.
  // Throws UsageError when the GPU has not enough memory for it.
  DeviceMatrixBf16(int height, int width, int stride = 0);
  DeviceMatrixBf16(DeviceMatrixBf16&&) noexcept = default;
  DeviceMatrixBf16& operator=(DeviceMatrixBf16&&) noexcept = default;
  DeviceMatrixBf16(const DeviceMatrixBf16&) = delete;
  DeviceMatrixBf16& operator=(const DeviceMatrixBf16&) = delete;

  // Null data once moved from.
  MatrixBf16 view() const { return MatrixBf16{width_, height_, stride_, data_.get()}; }

  // Copies between host and device views of the same shape, as DeviceMatrix's.
  void upload(MatrixBf16 host);
  void download(MatrixBf16 host) const;

  // Every byte kPoisonByte, padding included: 0xFFFF is a BF16 NaN (all exponent bits set,
  // a non-zero fraction), so an element a kernel fails to write fails every check.
  void poison();

 private:
  struct Free {
    void operator()(bf16* data) const;
  };
  int width_;
  int height_;
  int stride_;
  std::unique_ptr<bf16, Free> data_;
};

// dst = src rounded to the nearest BF16, ties to even (__float2bfloat16_rn): NaN stays NaN,
// infinities stay, floats beyond the largest BF16 become infinities. On the device, for
// device views; throws std::invalid_argument unless both have the same shape.
void round_to_bf16(Matrix src, MatrixBf16 dst);

// dst = src in FP32, exactly (every BF16 value is a float). Same contract as round_to_bf16.
void widen_to_float(MatrixBf16 src, Matrix dst);

}  // namespace ladder
