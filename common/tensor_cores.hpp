// The tensor-core stages multiply on tensor cores, which GPUs have from compute capability
// 8.0 (Ampere) on: their libraries are compiled only for such architectures (ladder_stage's
// MIN_ARCH), and their launchers ask this first. The Hopper stages, compiled for sm_90a alone
// (ladder_stage's ARCH), ask require_hopper.
#pragma once

#include <string>

namespace ladder {

// The current device's compute capability as 10 * major + minor: 80 for sm_80, 90 for sm_90.
// For tests only, LADDER_TEST_COMPUTE_CAPABILITY (say "80") stands in for an older GPU than the
// one present; it can lower the answer, never raise it.
int compute_capability();

// Throws UnsupportedGpuError (exit 77 in the programs, a skip in the tests, also under
// LADDER_REQUIRE_GPU) naming both architectures when the current device is older than
// sm_<capability>: "needs sm_80 for BF16 tensor cores (wmma, mma.sync); this GPU is sm_75".
void require_compute_capability(int capability, const std::string& what);
void require_bf16_tensor_cores();  // sm_80

// As above, unless the current device is compute capability 9.0 exactly (H100, H200): the code
// of sm_90a (wgmma, setmaxnreg) runs on no other GPU, later ones included.
void require_hopper();

}  // namespace ladder
