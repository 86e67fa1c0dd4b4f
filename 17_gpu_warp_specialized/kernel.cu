#include "17_gpu_warp_specialized/kernel.hpp"

#include "15_gpu_mma_pipelined/kernel.hpp"
#include "16_gpu_tma_wgmma/hopper.cuh"
#include "16_gpu_tma_wgmma/kernel.hpp"
#include "common/cuda_check.hpp"
#include "common/tensor_cores.hpp"
#include "common/tensor_map.hpp"

namespace ladder {
namespace {

using namespace hopper;

// A 256 x 128 tile of C per block. Warpgroup 0 is the producer; warpgroups 1 and 2 are the
// consumers, each 128 rows x 128 columns (two m64n128k16 per step, 128 accumulator registers
// a thread). Four ring slots of a 256 x 64 slice of A and a 64 x 128 slice of B: 48 KB a slot.
constexpr int kBlockM = 256;
constexpr int kBlockN = 128;
constexpr int kSlots = 4;
constexpr int kConsumers = 2;
constexpr int kConsumerRows = kBlockM / kConsumers;
constexpr int kThreads = (1 + kConsumers) * 128;
constexpr int kSliceABytes = kBlockM * kSliceK * 2;
constexpr int kSlotBytes = kSliceABytes + kBlockN * kSliceK * 2;
constexpr int kSharedBytes = kSwizzleAtomBytes + kSlots * kSlotBytes + 2 * kSlots * 8;
// setmaxnreg: 384 threads start with 168 registers each (65536 / 384, rounded down to 8); the
// producer keeps 40, so each consumer thread can have 232 (40 * 128 + 2 * 232 * 128 <= 65536).
constexpr int kProducerRegisters = 40;
constexpr int kConsumerRegisters = 232;

__global__ void __launch_bounds__(kThreads, 1)
    gemm_warp_specialized(const __grid_constant__ CUtensorMap a_map,
                          const __grid_constant__ CUtensorMap b_map, int k, Matrix c) {
  extern __shared__ unsigned char shared[];
  unsigned char* ring = align_to_swizzle(shared);
  // full[slot]: the slot's bytes have landed. empty[slot]: both consumers are done with it.
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(ring + kSlots * kSlotBytes);
  std::uint64_t* empty = full + kSlots;
  const int tiles_n = (c.width + kBlockN - 1) / kBlockN;
  const int row0 = blockIdx.x / tiles_n * kBlockM;
  const int col0 = blockIdx.x % tiles_n * kBlockN;
  const int slices = (k + kSliceK - 1) / kSliceK;
  if (threadIdx.x == 0) {
    for (int slot = 0; slot < kSlots; ++slot) {
      barrier_init(&full[slot], 1);
      barrier_init(&empty[slot], kConsumers);
    }
    barrier_init_fence();
  }
  __syncthreads();

  if (threadIdx.x / 128 == 0) {
    // Producer: one thread fills slot after slot, each once the consumers have emptied it.
    registers_decrease<kProducerRegisters>();
    if (threadIdx.x == 0) {
      for (int s = 0; s < slices; ++s) {
        const int slot = s % kSlots;
        if (s >= kSlots) barrier_wait(&empty[slot], (s / kSlots - 1) % 2);
        unsigned char* to = ring + slot * kSlotBytes;
        barrier_expect_bytes(&full[slot], kSlotBytes);
        tma_load(to, &a_map, &full[slot], s * kSliceK, row0);
#pragma unroll
        for (int box = 0; box < kBlockN / 64; ++box) {
          tma_load(to + kSliceABytes + box * kBoxBytes, &b_map, &full[slot], col0 + box * 64,
                   s * kSliceK);
        }
      }
    }
  } else {
    // Consumers: multiply each slice as it lands. Slice s's wgmma stay in flight while the
    // consumer waits for slice s - 1's to finish, then hands slice s - 1's slot back.
    registers_increase<kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
    auto release = [&](int s) {
      if (thread == 0) barrier_arrive(&empty[s % kSlots]);
    };
    float acc[kConsumerRows / 64][kBlockN / 2];
    for (int s = 0; s < slices; ++s) {
      const unsigned char* slot = ring + s % kSlots * kSlotBytes;
      barrier_wait(&full[s % kSlots], s / kSlots % 2);
      const bf16* a = reinterpret_cast<const bf16*>(slot) + consumer * kConsumerRows * kSliceK;
      const bf16* b = reinterpret_cast<const bf16*>(slot + kSliceABytes);
      wgmma_fence();
#pragma unroll
      for (int strip = 0; strip < kConsumerRows / 64; ++strip) {
        multiply_slice<kBlockN>(a + strip * 64 * kSliceK, b, acc[strip], s > 0);
      }
      wgmma_commit();
      wgmma_wait<1>();
      if (s > 0) release(s - 1);
    }
    wgmma_wait<0>();
    // Store.
#pragma unroll
    for (int strip = 0; strip < kConsumerRows / 64; ++strip) {
      store_strip<kBlockN>(c, acc[strip], row0 + consumer * kConsumerRows + strip * 64, col0,
                           thread);
    }
  }
}

}  // namespace

GlobalAccess launch_gemm_warp_specialized(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  check_gemm_shapes(a, b, c);
  require_hopper();
  if (tma_path(a, b) == GlobalAccess::scalar) {
    launch_gemm_mma_pipelined(mma_pipelined_configs().front(), a, b, c);
    return GlobalAccess::scalar;
  }
  const CUtensorMap a_map = make_tensor_map_2d(a, kSliceK, kBlockM);
  const CUtensorMap b_map = make_tensor_map_2d(b, 64, kSliceK);
  CUDA_CHECK(cudaFuncSetAttribute(gemm_warp_specialized,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  const long long tiles = static_cast<long long>((c.height + kBlockM - 1) / kBlockM) *
                          ((c.width + kBlockN - 1) / kBlockN);
  gemm_warp_specialized<<<static_cast<unsigned>(tiles), kThreads, kSharedBytes>>>(a_map, b_map,
                                                                                  a.width, c);
  CUDA_CHECK_LAUNCH();
  return GlobalAccess::vector;
}

}  // namespace ladder
