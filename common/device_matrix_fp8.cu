#include "common/device_matrix_fp8.hpp"

#include "common/cuda_check.hpp"
#include "common/device_memory.hpp"

namespace ladder {

DeviceFp8Scale::DeviceFp8Scale() {
  Fp8Scale* data = nullptr;
  check_allocation(cudaMalloc(&data, sizeof(Fp8Scale)), "GPU memory", 1, 2);
  data_.reset(data);
  upload(Fp8Scale{});
}

void DeviceFp8Scale::Free::operator()(Fp8Scale* data) const { cudaFree(data); }

void DeviceFp8Scale::upload(const Fp8Scale& scale) {
  CUDA_CHECK(cudaMemcpy(data_.get(), &scale, sizeof scale, cudaMemcpyHostToDevice));
}

Fp8Scale DeviceFp8Scale::download() const {
  Fp8Scale scale;
  CUDA_CHECK(cudaMemcpy(&scale, data_.get(), sizeof scale, cudaMemcpyDeviceToHost));
  return scale;
}

}  // namespace ladder
