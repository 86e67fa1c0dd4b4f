// FP8 operands in GPU memory: the owner of E4M3 matrices, a tensor's scale as the device keeps
// it and its owner, and an operand as a kernel takes it (values and scale). The quantisation
// that fills them on the device is the FP8 stage's (22_gpu_fp8/quantize.hpp).
#pragma once

#include <memory>

#include "common/device_memory.hpp"
#include "common/matrix.hpp"
#include "common/matrix_fp8.hpp"

namespace ladder {

// DeviceMatrix for E4M3 elements (0xFF, the poison, is an E4M3 NaN: S.1111.111).
using DeviceMatrixFp8 = DeviceElements<MatrixFp8>;

// One tensor's scale as the device keeps it: `quantize` multiplies the real values into E4M3's
// range (e4m3_scale of their largest magnitude), `dequantize` = 1 / quantize multiplies the
// products back (what stage 22's kernel and cuBLASLt's scale pointers read).
// `dequantize` comes first: cuBLASLt refuses scale pointers off a 16-byte boundary, and
// cudaMalloc returns 256-byte-aligned memory.
struct Fp8Scale {
  float dequantize = 1.0f;
  float quantize = 1.0f;
};

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

// An E4M3 operand on the device: the values, times the scale, rounded (device views).
struct ScaledFp8 {
  MatrixFp8 values;
  const Fp8Scale* scale = nullptr;
};

}  // namespace ladder
