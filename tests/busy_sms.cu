#include <chrono>
#include <thread>

#include "busy_sms.hpp"
#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder::test {
namespace {

// One thread per block marks its block running, then spins until the host releases it. The
// flags live in mapped host memory: the host writes and reads them while the kernel runs.
__global__ void spin_until_released(volatile int* flags) {
  extern __shared__ unsigned char held[];  // never touched: it only keeps other blocks off the SM
  if (threadIdx.x != 0) return;
  flags[1 + blockIdx.x] = 1;
  __threadfence_system();
  while (flags[0] == 0) {
  }
}

template <class Done>
bool wait_until(double seconds, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace

BusySms::BusySms(int free_sms) {
  blocks_ = device_attribute(cudaDevAttrMultiProcessorCount) - free_sms;
  if (blocks_ < 1) throw UsageError("BusySms: nothing left to hold");
  try {
    const int shared_bytes = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    CUDA_CHECK(cudaHostAlloc(&host_flags_, (1 + blocks_) * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i <= blocks_; ++i) host_flags_[i] = 0;
    int* device_flags = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer(&device_flags, host_flags_, 0));
    // Non-blocking: the default stream's work runs beside this stream's, not after it.
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CUDA_CHECK(cudaFuncSetAttribute(spin_until_released,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
    spin_until_released<<<blocks_, 32, shared_bytes, stream_>>>(device_flags);
    CUDA_CHECK_LAUNCH();
    const volatile int* running_flags = host_flags_ + 1;
    const bool running = wait_until(10.0, [this, running_flags] {
      for (int b = 0; b < blocks_; ++b) {
        if (running_flags[b] == 0) return false;
      }
      return true;
    });
    if (!running) throw CudaError("BusySms: the spinning blocks did not all start within 10 s");
  } catch (...) {
    release();
    throw;
  }
}

BusySms::~BusySms() { release(); }

void BusySms::release() noexcept {
  if (host_flags_ != nullptr) reinterpret_cast<volatile int*>(host_flags_)[0] = 1;
  if (stream_ != nullptr) {
    cudaStreamSynchronize(stream_);  // errors surface at the caller's next checked call
    cudaStreamDestroy(stream_);
  }
  cudaFreeHost(host_flags_);  // cudaFreeHost(nullptr) does nothing
}

bool default_stream_finishes_within(double seconds) {
  return wait_until(seconds, [] {
    const cudaError_t status = cudaStreamQuery(nullptr);
    if (status == cudaErrorNotReady) return false;
    CUDA_CHECK(status);
    return true;
  });
}

}  // namespace ladder::test
