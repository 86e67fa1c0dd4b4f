#include "common/harness/verify.hpp"

#include <cmath>
#include <cstdint>
#include <memory>

#include "common/cuda_check.hpp"
#include "common/grid.hpp"

namespace ladder {
namespace {

struct DeviceVerdict {
  unsigned long long worst;  // excess (float bits) << 32 | element index: atomicMax keeps the worst
  unsigned long long failures;
};

// One thread per element of c: the double reference, its bound, and how far the float
// result is from it in units of the bound (a NaN counts as infinitely far).
__global__ void check_gemm_kernel(Matrix a, Matrix b, Matrix c, double gamma,
                                  DeviceVerdict* verdict) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= c.height || col >= c.width) return;
  double want = 0;
  double magnitude = 0;
  for (int k = 0; k < a.width; ++k) {
    const double product = static_cast<double>(a.get(row, k)) * b.get(k, col);
    want += product;
    magnitude += fabs(product);
  }
  const double error = fabs(c.get(row, col) - want);
  const double bound = gamma * magnitude;
  const bool pass = error <= bound;  // false for NaN
  float excess = isnan(error) ? INFINITY : static_cast<float>(bound > 0 ? error / bound : error);
  if (!pass) {
    excess = fmaxf(excess, 1.0f + static_cast<float>(error));
    atomicAdd(&verdict->failures, 1ull);
  }
  // Non-negative floats order like their bit patterns, so the largest key is the worst.
  const unsigned long long key =
      static_cast<unsigned long long>(__float_as_uint(excess)) << 32 |
      static_cast<unsigned>(row * c.width + col);
  atomicMax(&verdict->worst, key);
}

}  // namespace

CheckResult check_gemm_on_device(Matrix a, Matrix b, Matrix c, Matrix a_host, Matrix b_host) {
  return check_gemm_on_device(a, b, c, a_host, b_host, gemm_gamma(a.width));
}

CheckResult check_gemm_on_device(Matrix a, Matrix b, Matrix c, Matrix a_host, Matrix b_host,
                                 double gamma) {
  DeviceVerdict* allocation = nullptr;
  CUDA_CHECK(cudaMalloc(&allocation, sizeof *allocation));
  const std::unique_ptr<DeviceVerdict, decltype(&cudaFree)> verdict(allocation, &cudaFree);
  CUDA_CHECK(cudaMemset(verdict.get(), 0, sizeof(DeviceVerdict)));
  const dim3 block(16, 16);
  const dim3 grid = grid_covering(c.width, c.height, block.x, block.y);
  check_gemm_kernel<<<grid, block>>>(a, b, c, gamma, verdict.get());
  CUDA_CHECK_LAUNCH();
  DeviceVerdict result{};
  CUDA_CHECK(cudaMemcpy(&result, verdict.get(), sizeof result, cudaMemcpyDeviceToHost));

  // Describe the worst element again on the host, from the host copies of the inputs.
  CheckResult check;
  check.checked = static_cast<long long>(c.width) * c.height;
  check.ok = result.failures == 0;
  const auto index = static_cast<std::uint32_t>(result.worst & 0xffffffffu);
  check.row = static_cast<int>(index / c.width);
  check.col = static_cast<int>(index % c.width);
  float got = 0;
  CUDA_CHECK(cudaMemcpy(&got, c.data + check.row * c.stride + check.col, sizeof got,
                        cudaMemcpyDeviceToHost));
  double want = 0;
  double magnitude = 0;
  for (int k = 0; k < a_host.width; ++k) {
    const double product = static_cast<double>(a_host.get(check.row, k)) * b_host.get(k, check.col);
    want += product;
    magnitude += std::fabs(product);
  }
  check.got = got;
  check.want = want;
  check.error = std::fabs(got - want);
  check.bound = gamma * magnitude;
  return check;
}

}  // namespace ladder
