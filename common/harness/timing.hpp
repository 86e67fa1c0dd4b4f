// Timers and the one measuring helper every stage uses: warm up, repeat, take the median.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "common/harness/program.hpp"  // Repeats

namespace ladder {

// Wall-clock time on the host, for CPU stages.
class HostTimer {
 public:
  HostTimer() : start_(std::chrono::steady_clock::now()) {}
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  int runs = 0;
  int warmups = 0;  // untimed runs before them
};

// The median (and minimum) of `timed` values, each one the milliseconds one run took.
inline Timing summarize(std::vector<double> samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("no timed runs");
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t n = samples_ms.size();
  const double median =
      n % 2 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
  return Timing{median, samples_ms.front(), static_cast<int>(n), 0};
}

// Runs `timed_run` repeats.warmup times untimed, then repeats.timed times; timed_run does
// one run and returns the milliseconds it took (host timer or CUDA events).
template <class TimedRun>
Timing measure(const Repeats& repeats, TimedRun&& timed_run) {
  for (int i = 0; i < repeats.warmup; ++i) timed_run();
  std::vector<double> samples;
  samples.reserve(repeats.timed);
  for (int i = 0; i < repeats.timed; ++i) samples.push_back(timed_run());
  Timing timing = summarize(std::move(samples));
  timing.warmups = repeats.warmup;
  return timing;
}

// Times a host function with the steady clock; `before_each` runs outside the timed region
// (poisoning the output, for instance), as in measure_gpu.
template <class Work, class Prepare>
Timing measure_host(const Repeats& repeats, Work&& work, Prepare&& before_each) {
  return measure(repeats, [&] {
    before_each();
    HostTimer timer;
    work();
    return timer.elapsed_ms();
  });
}

// How many bytes to write between timed GPU runs so that nothing of the previous run stays
// in an L2 cache of `l2_bytes`: twice its size, since a cache does not evict strictly the
// oldest lines first.
inline std::size_t l2_flush_bytes(std::size_t l2_bytes) { return 2 * l2_bytes; }

}  // namespace ladder
