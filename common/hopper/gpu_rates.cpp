#include "common/hopper/gpu_rates.hpp"

#include <map>
#include <mutex>

#include "common/cuda_check.hpp"

namespace ladder::hopper {

namespace {
constexpr double kCopyShareOfPeak = 0.869;
}  // namespace

GpuRates gpu_rates() {
  static std::mutex mutex;
  static std::map<int, GpuRates> asked;  // device -> its rates
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  const auto known = asked.find(device);
  if (known != asked.end()) return known->second;
  const double memory_khz = device_attribute(cudaDevAttrMemoryClockRate);
  const double bus_bytes = device_attribute(cudaDevAttrGlobalMemoryBusWidth) / 8.0;
  const GpuRates rates{device_attribute(cudaDevAttrClockRate) / 1e3,
                       kCopyShareOfPeak * 2 * memory_khz * 1e3 * bus_bytes / 1e6};
  asked[device] = rates;
  return rates;
}

}  // namespace ladder::hopper
