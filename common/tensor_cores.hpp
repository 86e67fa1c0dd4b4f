// Stages 13 and later multiply BF16 on tensor cores (wmma and mma.sync with BF16 operands),
// which GPUs have from compute capability 8.0 (Ampere) on. Their libraries are compiled only
// for such architectures (ladder_stage's MIN_ARCH), and their launchers ask this first.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder {

// Throws NoDeviceError (exit 77 in the programs, a skip in the tests) naming the GPU's compute
// capability when the current device is older than sm_<major><minor>.
inline void require_compute_capability(int major, int minor, const std::string& what) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int has_major = 0;
  int has_minor = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&has_major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&has_minor, cudaDevAttrComputeCapabilityMinor, device));
  if (has_major * 10 + has_minor < major * 10 + minor) {
    throw NoDeviceError(what + " needs compute capability " + std::to_string(major) + "." +
                        std::to_string(minor) + " or newer; this GPU is sm_" +
                        std::to_string(has_major) + std::to_string(has_minor));
  }
}

inline void require_bf16_tensor_cores() {
  require_compute_capability(8, 0, "BF16 on tensor cores (wmma, mma.sync)");
}

}  // namespace ladder
