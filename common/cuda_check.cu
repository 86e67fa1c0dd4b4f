#include "common/cuda_check.hpp"

#include <cstdio>

#include "common/errors.hpp"

namespace ladder {

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                   int line) {
  char text[512];
  std::snprintf(text, sizeof text, "%s:%d: %s failed: %s (%s)", file, line, call,
                cudaGetErrorString(status), cudaGetErrorName(status));
  throw CudaError(text);
}

}  // namespace ladder
