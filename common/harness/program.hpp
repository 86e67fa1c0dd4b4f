// The contract every stage program keeps: its exit codes, and the wrapper that turns what
// its body throws into them.
#pragma once

#include <string>

namespace ladder {

// 0 verified, 1 wrong result or runtime error, 2 bad usage, 77 no usable GPU or a GPU
// without the stage's instructions (what ctest shows as Skipped).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitSkipped = 77;

// Whether no usable GPU is a failure rather than a skip: the environment variable
// LADDER_REQUIRE_GPU, given its value (nullptr when unset), is set to anything but "" or
// "0". A machine meant to run the GPU tests sets it (scripts/gpu_check.sh, the `native` and
// `sanitize` test presets), so that a GPU the build has no code for, or too old a driver,
// fails there instead of passing as Skipped.
bool gpu_required(const char* variable_value);
bool gpu_required();  // reads LADDER_REQUIRE_GPU

// What a program or the test runner does when no GPU is usable: prints "skipped: " and
// `message` on stderr and returns kExitSkipped, or, when `required`, prints "error: " and
// `message`, then a line naming LADDER_REQUIRE_GPU, and returns kExitFailure. `prefix`
// starts each line ("04_gpu_shared_tiled: ", or "" for the test runner).
int no_usable_gpu(const std::string& prefix, const std::string& message, bool required);

// Runs a stage program's body and turns what it throws into the exit codes above and a
// one-line message on stderr: UsageError 2, UnsupportedGpuError 77, NoDeviceError 77 (1 when
// gpu_required()), anything else 1.
int run_program(const char* program, int (*body)(int, char**), int argc, char** argv);

}  // namespace ladder
