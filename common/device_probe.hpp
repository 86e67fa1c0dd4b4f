// Finding a GPU that can run this build's kernels, or saying in one line why there is none.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace ladder {

struct DeviceInfo {
  std::string name;
  int major = 0;  // compute capability
  int minor = 0;
  int multiprocessors = 0;
  std::size_t memory_bytes = 0;
  std::size_t l2_bytes = 0;
  double fp32_peak_gflops = 0;  // FMA lanes x 2 flops x SMs x the maximum SM clock
  // Dense BF16 on the tensor cores (FP32 accumulation): SMs x FLOP per clock per SM x the
  // same clock; 0 where this code has no figure for the architecture.
  double bf16_peak_gflops = 0;
  // "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79 GiB, L2 52 MB, FP32 peak 66.9 TFLOP/s,
  // BF16 peak 1070.5 TFLOP/s)"; the BF16 peak only where it is known.
  std::string describe() const;
};

// Why no CUDA device can run this build's kernels; empty when device 0 can.
std::string no_device_reason();

// Device 0, checked as above; throws NoDeviceError with the reason.
DeviceInfo require_device();

// The reason no_device_reason gives when cudaGetDeviceCount fails with `status`. Without a
// GPU or without a driver the runtime says "CUDA driver version is insufficient...", which
// reads like "upgrade your driver", so those two cases say what is missing first.
std::string device_count_failure(cudaError_t status);

}  // namespace ladder
