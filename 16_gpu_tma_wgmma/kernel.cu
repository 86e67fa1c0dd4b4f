#include "16_gpu_tma_wgmma/kernel.hpp"

#include "common/hopper/launch.hpp"
#include "common/config_table.hpp"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/per_tile_launch.hpp"
#include "common/hopper/tma.cuh"
#include "common/hopper/warpgroup.cuh"

namespace ladder {
namespace {

using namespace hopper;

// A 128 x BlockN tile of C per block: two warpgroups, each 64 rows x BlockN columns (one
// m64nBlockNk16 per 16-deep step). Three ring slots of a 128 x 64 slice of A and a 64 x BlockN
// slice of B (BlockN / 64 boxes of 64 x 64). The default is 256 wide: 128 accumulator
// registers a thread, 48 KB a slot; 128 wide is the ablation that isolates the wider tile.
template <int BlockN>
struct Tile : SlotRing<128, BlockN, 3, 1> {  // one barrier per slot: `landed`
  static constexpr int kThreads = Tile::kBlockM / 64 * 128;
};

template <class T>
__global__ void __launch_bounds__(T::kThreads)
    gemm_tma_wgmma(const __grid_constant__ CUtensorMap a_map,
                   const __grid_constant__ CUtensorMap b_map, int k, Matrix c) {
  constexpr int kBlockM = T::kBlockM;
  constexpr int kBlockN = T::kBlockN;
  constexpr int kSlots = T::kSlots;
  constexpr int kSliceABytes = T::kSliceABytes;
  constexpr int kSlotBytes = T::kSlotBytes;
  extern __shared__ unsigned char shared[];
  unsigned char* ring = align_to_swizzle(shared);
  std::uint64_t* landed = reinterpret_cast<std::uint64_t*>(ring + kSlots * kSlotBytes);
  const int tiles_n = (c.width + kBlockN - 1) / kBlockN;
  const int row0 = blockIdx.x / tiles_n * kBlockM;
  const int col0 = blockIdx.x % tiles_n * kBlockN;
  const int slices = (k + kSliceK - 1) / kSliceK;
  const int warpgroup = threadIdx.x / 128;

  // Load: thread 0 asks TMA for slice s (one box of A, BlockN / 64 of B) into slot
  // s % kSlots; the slot's barrier completes when all its bytes have landed.
  auto load_slice = [&](int s) {
    unsigned char* slot = ring + s % kSlots * kSlotBytes;
    std::uint64_t* bar = &landed[s % kSlots];
    barrier_expect_bytes(bar, kSlotBytes);
    tma_load(slot, &a_map, bar, s * kSliceK, row0);
#pragma unroll
    for (int box = 0; box < kBlockN / 64; ++box) {
      tma_load(slot + kSliceABytes + box * kBoxBytes, &b_map, bar, col0 + box * 64, s * kSliceK);
    }
  };
  if (threadIdx.x == 0) {
    for (int slot = 0; slot < kSlots; ++slot) barrier_init(&landed[slot], 1);
    barrier_init_fence();
    for (int s = 0; s < kSlots && s < slices; ++s) load_slice(s);
  }
  __syncthreads();  // the barriers are initialised before anyone waits on them

  // Compute: wait for slice s to land, multiply it; once every warpgroup is done with its
  // slot, refill that slot with slice s + kSlots.
  float acc[kBlockN / 2];
  for (int s = 0; s < slices; ++s) {
    const unsigned char* slot = ring + s % kSlots * kSlotBytes;
    barrier_wait(&landed[s % kSlots], s / kSlots % 2);
    wgmma_fence();
    multiply_slice<kBlockN>(reinterpret_cast<const bf16*>(slot) + warpgroup * 64 * kSliceK,
                            reinterpret_cast<const bf16*>(slot + kSliceABytes), acc, s > 0);
    wgmma_commit();
    wgmma_wait<0>();
    __syncthreads();
    if (threadIdx.x == 0 && s + kSlots < slices) load_slice(s + kSlots);
  }

  // Store.
  store_strip<kBlockN>(c, acc, row0 + warpgroup * 64, col0, threadIdx.x % 128);
}

template <class T>
void launch(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  launch_per_tile<T>(gemm_tma_wgmma<T>, a, b, c);
}

// The first is the default.
const HopperVariant kVariants[] = {
    {"128x256_s3", launch<Tile<256>>},
    {"128x128_s3", launch<Tile<128>>},  // the ablation: stage 15's tile width
};

}  // namespace

std::vector<std::string> tma_wgmma_configs() { return config_names(kVariants); }

OperandPath launch_gemm_tma_wgmma(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                  Matrix c) {
  return launch_hopper_variant(find_config(kVariants, config, "stage 16 has no tiling"), a, b, c);
}

}  // namespace ladder
