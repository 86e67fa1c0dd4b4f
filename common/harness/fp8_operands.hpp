// The FP8 bench's operands, which the tests and the error study build too: E4M3 codes with
// per-tensor or per-block scales and the FP32 values they stand for, on the host and the
// device; and the checks of codes and widened values. Internal to the harness and its tests: a
// stage's program includes fp8_gemm_bench.hpp.
#pragma once

#include "common/device_matrix.hpp"
#include "common/device_matrix_fp8.hpp"
#include "common/harness/fp8_gemm_bench.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"

namespace ladder {

// Whether got holds the same E4M3 codes as want, bit for bit (host views of one shape): the
// first element that differs, and how many were compared.
CheckResult check_codes(const MatrixFp8& got, const MatrixFp8& want);

// out = the values E4M3 codes stand for, code * factor(row, col), in FP32 (host views of one
// shape): what a check's reference multiplies.
template <class Factor>
void widen(const MatrixFp8& codes, Factor factor, Matrix out) {
  for (int row = 0; row < codes.height; ++row) {
    for (int col = 0; col < codes.width; ++col) {
      out.set(row, col, static_cast<float>(codes.get(row, col)) * factor(row, col));
    }
  }
}

// E4M3 operands with one scale per tensor, quantised on the device from host A and B (A as it
// is, B into B^T) by `quantizers`, and what they stand for (codes times the factor, in FP32) on
// the device and the host: the inputs of a check, in which every product is exact.
class Fp8Operands {
 public:
  Fp8Operands(Matrix a, Matrix b, const Fp8Quantizers& quantizers);

  ScaledFp8 a() const { return {a8_.view(), a_scale_.get()}; }
  ScaledFp8 b_t() const { return {b_t8_.view(), b_scale_.get()}; }
  Matrix a_float() const { return a_.view(); }  // A and B in FP32, as given (device)
  Matrix b_float() const { return b_.view(); }
  Matrix a_widened() const { return a_widened_.view(); }  // device
  Matrix b_widened() const { return b_widened_.view(); }
  Matrix a_widened_host() { return a_widened_host_.view(); }
  Matrix b_widened_host() { return b_widened_host_.view(); }

 private:
  DeviceMatrix a_;
  DeviceMatrix b_;
  DeviceFp8Scale a_scale_;
  DeviceFp8Scale b_scale_;
  DeviceMatrixFp8 a8_;
  DeviceMatrixFp8 b_t8_;
  HostMatrix a_widened_host_;
  HostMatrix b_widened_host_;
  DeviceMatrix a_widened_;
  DeviceMatrix b_widened_;
};

// The same with per-block scales (1 x 128 of A, 128 x 128 of B, as DeepSeek-V3 trains with),
// quantised on the host, with each block's factor (1 / scale) on the device.
class BlockFp8Operands {
 public:
  static constexpr int kBlock = 128;
  BlockFp8Operands(Matrix a, Matrix b);

  MatrixFp8 a() const { return a8_.view(); }
  MatrixFp8 b_t() const { return b_t8_.view(); }
  Matrix a_dequantize() const { return a_factors_.view(); }  // m x blocks of K
  Matrix b_dequantize() const { return b_factors_.view(); }  // blocks of N x blocks of K
  Matrix a_widened() const { return a_widened_.view(); }
  Matrix b_widened() const { return b_widened_.view(); }
  Matrix a_widened_host() { return a_widened_host_.view(); }
  Matrix b_widened_host() { return b_widened_host_.view(); }

 private:
  DeviceMatrixFp8 a8_;
  DeviceMatrixFp8 b_t8_;
  DeviceMatrix a_factors_;
  DeviceMatrix b_factors_;
  HostMatrix a_widened_host_;
  HostMatrix b_widened_host_;
  DeviceMatrix a_widened_;
  DeviceMatrix b_widened_;
};

}  // namespace ladder
