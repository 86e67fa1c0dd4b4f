// The register split of a warp-specialised block: one producer warpgroup, which issues the TMA
// copies and needs few registers, and two consumer warpgroups, which hold the accumulators.
#pragma once

namespace ladder::hopper {

// 384 threads start with 168 registers each (65536 / 384, rounded down to 8); the producer
// keeps 40, so each consumer thread can have 232 (40 * 128 + 2 * 232 * 128 <= 65536).
constexpr int kProducerRegisters = 40;
constexpr int kConsumerRegisters = 232;

// Gives this warpgroup's registers back to the pool (dec) or takes more from it (inc).
template <int Registers>
__device__ inline void registers_decrease() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
}
template <int Registers>
__device__ inline void registers_increase() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
}

}  // namespace ladder::hopper
