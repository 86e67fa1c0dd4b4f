// The FP8 operands of stage 20 in GPU memory, and their quantisation on the device: the
// per-tensor scale from the largest magnitude, FP32 to E4M3 in the same layout (A) or
// transposed (B to B^T, the K-major layout wgmma and cuBLASLt read FP8 in). Every step is
// queued on the default stream: nothing waits for the host, so a timed call may quantise and
// multiply in one go.
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
// products back (what stage 20's kernel and cuBLASLt's scale pointers read).
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

// *scale = the per-tensor scale of src (a device view) as e4m3_scale computes it on the host:
// 448 / largest |x|, 1 for an all-zero src. Two kernels (the largest magnitude, reduced across
// blocks with an atomic maximum, then the division); NaN elements are passed over, and an
// infinite one makes the scale 0 (the host version refuses both).
void e4m3_scale_on_device(Matrix src, Fp8Scale* scale);

// dst = src * scale->quantize rounded to E4M3 (nearest, ties to even, saturating at +-448),
// exactly as the host's quantize_e4m3: same shape (std::invalid_argument otherwise).
void quantize_e4m3(Matrix src, const Fp8Scale* scale, MatrixFp8 dst);

// The same into dst = src^T (dst is src.width x src.height): B (K x N) into B^T (N x K), each
// row of dst one column of src. Tiles of 64 x 64 through shared memory: reads of whole 256-byte
// rows of floats, writes of 4 bytes (4 consecutive K) where dst's rows allow them.
void quantize_e4m3_transposed(Matrix src, const Fp8Scale* scale, MatrixFp8 dst);

}  // namespace ladder
