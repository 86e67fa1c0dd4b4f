// The failures common's code reports by exception. Each one maps to an exit code of the
// stage programs (common/harness/program.hpp): bad usage 2, no usable GPU 77, CUDA error 1.
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

// A CUDA or cuBLAS call failed.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ladder
