// What the tiling models of the Stream-K and FP8 stages read of the current GPU besides its
// SMs and clusters: its maximum SM clock and what DRAM delivers to a copy.
#pragma once

namespace ladder::hopper {

struct GpuRates {
  double clock_mhz = 0;     // the maximum SM clock
  double bytes_per_us = 0;  // DRAM's rate to a device-to-device copy
};

// The current device's, asked of the driver the first time for each device and kept under a
// lock (host threads may launch at once): the driver takes about a millisecond to tell the
// clocks, which asked on every call would cost more than the product on most shapes of the
// lists. The copy rate is the peak the memory clock and bus width give (two transfers a clock)
// times the share of it cudaMemcpy reached on the H200: 4,185 of 4,814 GB/s
// (results/21_gpu_stream_k/model.md).
GpuRates gpu_rates();

}  // namespace ladder::hopper
