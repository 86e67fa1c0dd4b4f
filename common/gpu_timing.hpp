// Timing GPU work with CUDA events.
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.hpp"
#include "common/timing.hpp"

namespace ladder {

// Two events around work queued on the default stream; elapsed time as the GPU saw it.
class EventTimer {
 public:
  EventTimer() {
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  template <class Work>
  double time_ms(Work&& work) {
    CUDA_CHECK(cudaEventRecord(start_));
    work();
    CUDA_CHECK(cudaEventRecord(stop_));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

// Warm-up, then `repeats.timed` event-timed runs of `work`; `before_each` runs outside the
// timed region (poisoning the output, for instance).
template <class Work, class Prepare>
Timing measure_gpu(const Repeats& repeats, Work&& work, Prepare&& before_each) {
  EventTimer timer;
  return measure(repeats, [&] {
    before_each();
    return timer.time_ms(work);
  });
}

}  // namespace ladder
