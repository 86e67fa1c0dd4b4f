// The failures common's code reports by exception, each an exit code of the programs
// (common/harness/program.hpp): bad usage 2, no usable GPU 77 (1 under LADDER_REQUIRE_GPU), a
// GPU without this stage's instructions 77, CUDA error 1.
#pragma once

#include <stdexcept>

namespace ladder {

// Bad options or a problem that cannot fit.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// No usable CUDA device (no driver, no GPU, no code for this GPU).
struct NoDeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A working GPU without this stage's instructions (sm_80 for mma.sync, sm_90a for wgmma):
// skipped, also under LADDER_REQUIRE_GPU, since nothing is wrong with this machine.
struct UnsupportedGpuError : NoDeviceError {
  using NoDeviceError::NoDeviceError;
};

// A CUDA or cuBLAS call failed.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ladder
