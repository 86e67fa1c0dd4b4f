// The contract every stage program keeps: its exit codes, and the wrapper that turns what
// its body throws into them.
#pragma once

namespace ladder {

// 0 verified, 1 wrong result or runtime error, 2 bad usage, 77 no usable GPU (what ctest
// shows as Skipped).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitSkipped = 77;

// Runs a stage program's body and turns what it throws into the exit codes above and a
// one-line message on stderr: UsageError 2, NoDeviceError 77, anything else 1.
int run_program(const char* program, int (*body)(int, char**), int argc, char** argv);

}  // namespace ladder
