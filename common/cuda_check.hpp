// Every CUDA runtime call and every kernel launch goes through these checks.
#pragma once

#include <cuda_runtime.h>

namespace ladder {
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                   int line);
// An attribute of the current device, asked each time: another device, or a reset, may differ.
int device_attribute(cudaDeviceAttr attribute);
}  // namespace ladder

// Throws CudaError with file:line, the call and the runtime's message.
#define CUDA_CHECK(call)                                                    \
  do {                                                                      \
    const cudaError_t ladder_status = (call);                               \
    if (ladder_status != cudaSuccess) {                                     \
      ::ladder::throw_cuda_error(ladder_status, #call, __FILE__, __LINE__); \
    }                                                                       \
  } while (0)

// After a <<<...>>> launch: catches bad launch configurations at once; errors inside
// the kernel surface at the next synchronising call, which is checked too.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
