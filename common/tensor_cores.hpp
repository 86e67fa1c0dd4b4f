// Stages 13 and later multiply BF16 on tensor cores (wmma and mma.sync with BF16 operands),
// which GPUs have from compute capability 8.0 (Ampere) on. Their libraries are compiled only
// for such architectures (ladder_stage's MIN_ARCH), and their launchers ask this first.
// Stages 16-18 use Hopper's TMA and wgmma, compiled for sm_90a alone (ladder_stage's ARCH):
// their launchers ask require_hopper.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder {

// The current device's compute capability as 10 * major + minor: 80 for sm_80, 90 for sm_90.
inline int compute_capability() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int major = 0;
  int minor = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major * 10 + minor;
}

// Throws NoDeviceError (exit 77 in the programs, a skip in the tests) naming the GPU's compute
// capability when the current device is older than sm_<major><minor>.
inline void require_compute_capability(int major, int minor, const std::string& what) {
  if (const int has = compute_capability(); has < major * 10 + minor) {
    throw NoDeviceError(what + " needs compute capability " + std::to_string(major) + "." +
                        std::to_string(minor) + " or newer; this GPU is sm_" +
                        std::to_string(has));
  }
}

inline void require_bf16_tensor_cores() {
  require_compute_capability(8, 0, "BF16 on tensor cores (wmma, mma.sync)");
}

// Throws NoDeviceError as above unless the current device is compute capability 9.0 exactly
// (H100, H200). The "a" of sm_90a marks features of that one architecture (wgmma, setmaxnreg):
// its code runs on no other GPU, later ones (Blackwell, sm_100) included, and there is no PTX
// of it that a newer driver could compile for them.
inline void require_hopper() {
  if (const int has = compute_capability(); has != 90) {
    throw NoDeviceError("TMA and wgmma (sm_90a) run on compute capability 9.0 only (H100, "
                        "H200); this GPU is sm_" + std::to_string(has));
  }
}

}  // namespace ladder
