#include "common/tensor_cores.hpp"

#include <cuda_runtime.h>

#include <cstdlib>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder {

int compute_capability() {
  const int actual = device_attribute(cudaDevAttrComputeCapabilityMajor) * 10 +
                     device_attribute(cudaDevAttrComputeCapabilityMinor);
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

void require_compute_capability(int capability, const std::string& what) {
  if (const int has = compute_capability(); has < capability) {
    throw UnsupportedGpuError("needs sm_" + std::to_string(capability) + " for " + what +
                              "; this GPU is sm_" + std::to_string(has));
  }
}

void require_bf16_tensor_cores() {
  require_compute_capability(80, "BF16 tensor cores (wmma, mma.sync)");
}

// The "a" of sm_90a marks features of that one architecture: its code runs on no other GPU,
// later ones (Blackwell, sm_100) included, and there is no PTX of it that a newer driver could
// compile for them.
void require_hopper() {
  if (const int has = compute_capability(); has != 90) {
    throw UnsupportedGpuError("needs sm_90a for TMA and wgmma (H100, H200); this GPU is sm_" +
                              std::to_string(has));
  }
}

}  // namespace ladder
