// FP8 operands in GPU memory: the owner of E4M3 matrices and the owner of a tensor's scale
// (the views they hand out, MatrixFp8 and Fp8Scale, are matrix_fp8.hpp's). The quantisation
// that fills them on the device is the FP8 stage's (22_gpu_fp8/quantize.hpp).
#pragma once

#include <memory>

#include "common/device_memory.hpp"
#include "common/matrix_fp8.hpp"

namespace ladder {

// DeviceMatrix for E4M3 elements (0xFF, the poison, is an E4M3 NaN: S.1111.111).
using DeviceMatrixFp8 = DeviceElements<MatrixFp8>;

// One Fp8Scale in GPU memory (RAII, move-only); it starts as 1 and 1.
class DeviceFp8Scale {
 public:
  DeviceFp8Scale();
  Fp8Scale* get() const { return data_.get(); }
  void upload(const Fp8Scale& scale);
  Fp8Scale download() const;

 private:
  struct Free {
    void operator()(Fp8Scale* data) const;
  };
  std::unique_ptr<Fp8Scale, Free> data_;
};

}  // namespace ladder
