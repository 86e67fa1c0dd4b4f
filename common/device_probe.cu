#include "common/device_probe.hpp"

#include <cstdio>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder {
namespace {

// Never launched: asking for its attributes tells whether this binary holds code the
// device can run.
__global__ void probe_kernel() {}

// FP32 FMA units per SM, from the CUDA programming guide's throughput table.
int fp32_lanes_per_sm(int major, int minor) {
  if (major == 7 || (major == 8 && minor == 0)) return 64;  // Volta, Turing, A100
  return 128;                                             // later consumer parts, Hopper, Blackwell
}

// Dense BF16 FLOP per clock per SM, FP32 accumulation, from the vendors' whitepapers: A100
// 312 TFLOP/s = 108 SMs x 1410 MHz x 2048; H100 SXM5 989.4 TFLOP/s = 132 SMs x 1830 MHz x
// 4096. The whitepapers' clocks are lower than the maximum the device reports (1980 MHz on
// the H100), which the FP32 peak uses too: the peak printed is then higher than theirs
// (1070.5 TFLOP/s on the H100 SXM5). 0: no figure here for the architecture.
int bf16_flops_per_clock_per_sm(int major, int minor) {
  if (major == 8 && minor == 0) return 2048;  // A100
  if (major == 9 && minor == 0) return 4096;  // H100, H200
  return 0;
}

}  // namespace

std::string device_count_failure(cudaError_t status) {
  const char* runtime_says = cudaGetErrorString(status);
  if (status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice) {
    return std::string("no NVIDIA GPU or driver found (cudaGetDeviceCount: ") + runtime_says + ")";
  }
  return std::string("cudaGetDeviceCount failed: ") + runtime_says;
}

std::string no_device_reason() {
  int count = 0;
  // With no driver this call fails and leaves count unwritten: trust only its status.
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear it, so later calls start clean
    return device_count_failure(status);
  }
  if (count == 0) return "no CUDA device found";
  cudaFuncAttributes attributes;
  const cudaError_t image = cudaFuncGetAttributes(&attributes, probe_kernel);
  if (image != cudaSuccess) {
    cudaGetLastError();
    std::string where = "device 0";
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
      where = std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
              std::to_string(prop.minor) + ")";
    }
    return where + " cannot run this build's kernels (" + cudaGetErrorString(image) +
           "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=native";
  }
  return "";
}

std::string DeviceInfo::describe() const {
  char text[256];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs, %.0f GiB, L2 %.0f MB, FP32 peak %.1f TFLOP/s",
                name.c_str(), major, minor, multiprocessors, memory_bytes / 1073741824.0,
                l2_bytes / 1e6, fp32_peak_gflops / 1e3);
  std::string description = text;
  if (bf16_peak_gflops > 0) {
    std::snprintf(text, sizeof text, ", BF16 peak %.1f TFLOP/s", bf16_peak_gflops / 1e3);
    description += text;
  }
  return description + ")";
}

DeviceInfo require_device() {
  if (std::string reason = no_device_reason(); !reason.empty()) throw NoDeviceError(reason);
  CUDA_CHECK(cudaSetDevice(0));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  DeviceInfo info;
  info.name = prop.name;
  info.major = prop.major;
  info.minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.memory_bytes = prop.totalGlobalMem;
  info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  int clock_khz = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  const double clock_ghz = clock_khz / 1e6;
  info.fp32_peak_gflops =
      2.0 * fp32_lanes_per_sm(prop.major, prop.minor) * prop.multiProcessorCount * clock_ghz;
  info.bf16_peak_gflops = bf16_flops_per_clock_per_sm(prop.major, prop.minor) *
                          prop.multiProcessorCount * clock_ghz;
  return info;
}

}  // namespace ladder
