// One operand of a BF16 product as the tensor-core bench makes it: FP32 values rounded to BF16
// on the device, and the rounded values widened back to FP32, on the device and on the host.
// A double reference computed from the widened values has every product exact, so a check
// sees only the kernel's error (the bench's, and tests/tensor_error_study.cpp's).
#pragma once

#include "common/device_matrix.hpp"
#include "common/device_matrix_bf16.hpp"
#include "common/host_matrix.hpp"

namespace ladder {

class Bf16Operand {
 public:
  // `values` is uploaded, rounded, and overwritten with the rounded values (widened).
  explicit Bf16Operand(HostMatrix values);

  MatrixBf16 rounded() const { return rounded_.view(); }  // device
  Matrix widened() const { return widened_.view(); }      // device
  Matrix widened_host() { return widened_host_.view(); }

 private:
  HostMatrix widened_host_;
  DeviceMatrix widened_;
  DeviceMatrixBf16 rounded_;
};

}  // namespace ladder
