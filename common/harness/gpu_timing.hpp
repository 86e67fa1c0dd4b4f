// CUDA events and streams as RAII owners, and timing GPU work with events.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "common/cuda_check.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/timing.hpp"

namespace ladder {

// A CUDA event. Timing ones cost a little more to record; the others only order work
// between streams.
class Event {
 public:
  explicit Event(bool timing = false) {
    CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault
                                                        : cudaEventDisableTiming));
  }
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&&) = delete;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  operator cudaEvent_t() const { return event_; }

 private:
  cudaEvent_t event_{};
};

// A non-blocking stream: it never waits for the legacy default stream, on which the stage
// launchers run their kernels, nor the other way round; events order them instead.
class Stream {
 public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  operator cudaStream_t() const { return stream_; }

 private:
  cudaStream_t stream_{};
};

// A buffer twice the size of the current GPU's L2 cache, written before each timed run to
// evict the previous run's data. A problem small enough to stay in L2 between runs (the
// articles' 23 MB in the H100's 50 MB) is otherwise timed reading its inputs from there,
// which no first run, and no problem larger than L2, can do.
class L2Flush {
 public:
  L2Flush() {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    int l2_bytes = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    bytes_ = l2_flush_bytes(static_cast<std::size_t>(l2_bytes));
    // Counted like the problem's matrices, which the benches check before making them and
    // make before this buffer: what is free now is what they left.
    require_device_memory("flushing L2 before each timed run (--l2 warm does without)", bytes_);
    CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
  }
  ~L2Flush() { cudaFree(buffer_); }
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  // Queued on the default stream, like the timed work and its events: it ends before the
  // start event, so it is never timed.
  void operator()() const { CUDA_CHECK(cudaMemsetAsync(buffer_, 0, bytes_)); }

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
};

// Two events around work queued on the default stream; elapsed time as the GPU saw it.
// Work on other streams counts when the default stream waits for it before `work` returns.
class EventTimer {
 public:
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
  Event start_{true};
  Event stop_{true};
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
