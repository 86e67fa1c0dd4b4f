#include "17_gpu_warp_specialized/kernel.hpp"

#include "common/hopper/launch.hpp"
#include "common/config_table.hpp"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/per_tile_launch.hpp"
#include "common/hopper/tma.cuh"
#include "common/hopper/warp_specialization.cuh"
#include "common/hopper/warpgroup.cuh"

namespace ladder {
namespace {

using namespace hopper;

// A BlockM x BlockN tile of C per block. Warpgroup 0 is the producer; warpgroups 1 and 2 are
// the consumers, each BlockM / 2 rows. The default, 256 x 128: consumers of 128 rows (two
// m64n128k16 per step, 128 accumulator registers a thread), four ring slots of a 256 x 64
// slice of A and a 64 x 128 slice of B, 48 KB a slot. KeepOneInFlight: a consumer waits with
// wgmma.wait_group 1 and hands back the previous slice's slot; without it (the ablation),
// wait_group 0 and the current slot.
template <int BlockM, int BlockN, bool KeepOneInFlight>
struct Tile : SlotRing<BlockM, BlockN, 4, 2> {  // two barriers per slot: `full` and `empty`
  static constexpr bool kKeepOneInFlight = KeepOneInFlight;
  static constexpr int kConsumers = 2;  // the register split (kConsumerRegisters) is for two
  static constexpr int kConsumerRows = BlockM / kConsumers;
  static constexpr int kThreads = (1 + kConsumers) * 128;
};

template <class T>
__global__ void __launch_bounds__(T::kThreads, 1)
    gemm_warp_specialized(const __grid_constant__ CUtensorMap a_map,
                          const __grid_constant__ CUtensorMap b_map, int k, Matrix c) {
  constexpr int kBlockM = T::kBlockM;
  constexpr int kBlockN = T::kBlockN;
  constexpr int kSlots = T::kSlots;
  constexpr int kConsumerRows = T::kConsumerRows;
  constexpr int kSliceABytes = T::kSliceABytes;
  constexpr int kSlotBytes = T::kSlotBytes;
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
      barrier_init(&empty[slot], T::kConsumers);
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
      if constexpr (T::kKeepOneInFlight) {
        wgmma_wait<1>();
        if (s > 0) release(s - 1);
      } else {
        wgmma_wait<0>();
        release(s);
      }
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

template <class T>
void launch(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  launch_per_tile<T>(gemm_warp_specialized<T>, a, b, c);
}

// The first is the default; each other one changes one thing.
const HopperVariant kVariants[] = {
    {"256x128_s4", launch<Tile<256, 128, true>>},
    {"256x128_s4_wait0", launch<Tile<256, 128, false>>},  // wait_group 0, no slice in flight
    {"128x256_s4", launch<Tile<128, 256, true>>},         // consumers of 64 rows x 256
};

}  // namespace

std::vector<std::string> warp_specialized_configs() { return config_names(kVariants); }

OperandPath launch_gemm_warp_specialized(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                         Matrix c) {
  return launch_hopper_variant(find_config(kVariants, config, "stage 17 has no variant"), a, b,
                               c);
}

}  // namespace ladder
