// A kernel ptxas compiles with an injected warpgroup.arrive (C7519): wgmma groups committed
// after the branches that issue them join, so ptxas closes each group with an empty product of
// its own, and wait_group 1 then waits for the group just issued. Stage 20's swapped TF32
// kernel did this and took 8-10% longer. scripts/ptxas_guard.sh must stop it
// (tests/CMakeLists.txt).
#include <cstdint>

#include "common/hopper/warpgroup.cuh"
#include "common/hopper/wgmma.cuh"

__global__ void commit_after_join(const std::uint32_t* in, float* out, int slices,
                                  std::uint64_t desc) {
  using namespace ladder::hopper;
  float acc[128] = {};
  std::uint32_t even[4];
  std::uint32_t odd[4];
  for (int s = 0; s < slices; ++s) {
    if (s % 2 == 0) {
      for (int i = 0; i < 4; ++i) even[i] = in[s * 4 + i];
      wgmma_fence();
      wgmma_m64n256k8_tf32_a_registers(acc, even, desc, 1);
    } else {
      for (int i = 0; i < 4; ++i) odd[i] = in[s * 4 + i];
      wgmma_fence();
      wgmma_m64n256k8_tf32_a_registers(acc, odd, desc, 1);
    }
    wgmma_commit();
    wgmma_wait<1>();
  }
  wgmma_wait<0>();
  for (int i = 0; i < 128; ++i) out[threadIdx.x * 128 + i] = acc[i];
}
