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

int device_attribute(cudaDeviceAttr attribute) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

}  // namespace ladder
