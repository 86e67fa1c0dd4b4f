// Stages 13 and later multiply BF16 on tensor cores (wmma and mma.sync with BF16 operands),
// which GPUs have from compute capability 8.0 (Ampere) on. Their libraries are compiled only
// for such architectures (ladder_stage's MIN_ARCH), and their launchers ask this first.
// Stages 16-18 use Hopper's TMA and wgmma, compiled for sm_90a alone (ladder_stage's ARCH):
// their launchers ask require_hopper.
#pragma once

#include <cuda_runtime.h>

#include <cstdlib>
#include <string>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder {

// The current device's compute capability as 10 * major + minor: 80 for sm_80, 90 for sm_90.
// For tests only, LADDER_TEST_COMPUTE_CAPABILITY (say "80") stands in for an older GPU than the
// one present, so that the skip of a stage this GPU cannot run is tested on any GPU; it can
// lower the answer, never raise it.
inline int compute_capability() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int major = 0;
  int minor = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const int actual = major * 10 + minor;
  if (const char* stand_in = std::getenv("LADDER_TEST_COMPUTE_CAPABILITY")) {
    char* end = nullptr;
    const long claimed = std::strtol(stand_in, &end, 10);
    if (*end != '\0' || claimed < 10) {  // "8.0" or "sm_80" would be a mistake, not sm_8
      throw UsageError("LADDER_TEST_COMPUTE_CAPABILITY must be a number such as 80, not '" +
                       std::string(stand_in) + "'");
    }
    if (claimed < actual) return static_cast<int>(claimed);
  }
  return actual;
}

// Throws UnsupportedGpuError (exit 77 in the programs, a skip in the tests, also under
// LADDER_REQUIRE_GPU) naming both architectures when the current device is older than
// sm_<capability>: "needs sm_80 for BF16 tensor cores (wmma, mma.sync); this GPU is sm_75".
inline void require_compute_capability(int capability, const std::string& what) {
  if (const int has = compute_capability(); has < capability) {
    throw UnsupportedGpuError("needs sm_" + std::to_string(capability) + " for " + what +
                              "; this GPU is sm_" + std::to_string(has));
  }
}

inline void require_bf16_tensor_cores() {
  require_compute_capability(80, "BF16 tensor cores (wmma, mma.sync)");
}

// As above, unless the current device is compute capability 9.0 exactly (H100, H200). The
// "a" of sm_90a marks features of that one architecture (wgmma, setmaxnreg): its code runs on
// no other GPU, later ones (Blackwell, sm_100) included, and there is no PTX of it that a
// newer driver could compile for them.
inline void require_hopper() {
  if (const int has = compute_capability(); has != 90) {
    throw UnsupportedGpuError("needs sm_90a for TMA and wgmma (H100, H200); this GPU is sm_" +
                              std::to_string(has));
  }
}

}  // namespace ladder
