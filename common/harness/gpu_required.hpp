// What a program or the test runner does when no GPU is usable: a skip, or, on a machine meant
// to run the GPU tests, a failure.
#pragma once

#include <string>

namespace ladder {

// Whether no usable GPU is a failure rather than a skip: the environment variable
// LADDER_REQUIRE_GPU, given its value (nullptr when unset), is set to anything but "" or "0".
// A machine meant to run the GPU tests sets it (scripts/gpu_check.sh, the `native` and
// `sanitize` test presets), so that a GPU the build has no code for, or too old a driver,
// fails there instead of passing as Skipped.
bool gpu_required(const char* variable_value);
bool gpu_required();  // reads LADDER_REQUIRE_GPU

// What a program or the test runner does when no GPU is usable: prints "skipped: " and
// `message` on stderr and returns kExitSkipped, or, when `required`, prints "error: " and
// `message`, then a line naming LADDER_REQUIRE_GPU, and returns kExitFailure. `prefix`
// starts each line ("04_gpu_shared_tiled: ", or "" for the test runner).
int no_usable_gpu(const std::string& prefix, const std::string& message, bool required);

}  // namespace ladder
