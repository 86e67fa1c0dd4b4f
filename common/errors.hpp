// The failures a stage program can meet, one type per exit code every stage shares:
// 1 wrong result or runtime error, 2 bad usage, 77 no usable GPU.
#pragma once

#include <stdexcept>
#include <string>

namespace ladder {

// Bad options or a problem that cannot fit: exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// No usable CUDA device (no driver, no GPU, no code for this GPU): exit code 77.
struct NoDeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A CUDA or cuBLAS call failed: exit code 1.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exit codes of the stage contract.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitSkipped = 77;

}  // namespace ladder
