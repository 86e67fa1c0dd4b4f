// mbarriers: counters in shared memory that threads and the copy engine arrive on, a phase
// completing when the expected arrivals (and TMA's bytes) are in. One PTX instruction a wrapper.
#pragma once

#include <cstdint>

#include "common/shared_address.cuh"

namespace ladder::hopper {

__device__ inline void barrier_init(std::uint64_t* bar, int arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n"
               :: "r"(shared_address(bar)), "r"(arrivals));
}
// Makes initialised barriers visible to the copy engine and to the other blocks of a cluster.
__device__ inline void barrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// One arrival that also says `bytes` more will land by TMA before this phase completes.
__device__ inline void barrier_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
               :: "r"(shared_address(bar)), "r"(bytes) : "memory");
}
// Waits until the phase with this parity (0, 1, 0, ...) has completed.
__device__ inline void barrier_wait(std::uint64_t* bar, int parity) {
  const std::uint32_t address = shared_address(bar);
  std::uint32_t done = 0;
  do {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(address), "r"(parity) : "memory");
  } while (done == 0);
}
__device__ inline void barrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(shared_address(bar)) : "memory");
}

}  // namespace ladder::hopper
