// Stage 20's default: C^T = B^T A^T, with B^T, wgmma's first operand, loaded from B's slices
// into registers by the consumers, and their tile of C^T written back transposed (README.md).
// Ring, barriers, multicast, tile order and launch are the persistent kernel's (persistent.cuh).
#include "20_gpu_tf32/tf32_swapped.hpp"

#include <cstdint>

#include "common/hopper/persistent.cuh"
#include "common/hopper/cluster.cuh"
#include "common/hopper/cluster_launch.hpp"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/tma.cuh"
#include "common/hopper/tma_store.cuh"
#include "common/hopper/warp_specialization.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/hopper/wgmma.cuh"
#include "common/shared_address.cuh"
#include "common/tensor_map.hpp"
#include "common/tensor_map_fp32.hpp"

namespace ladder {
namespace {

using namespace hopper;
using namespace persistent;

constexpr int kBBoxBytes = 32 * kSliceRowBytes;  // one box of B: 32 K-rows x 32 columns, 4 KB

// The swapped product's tiles: its rows are C's columns, its columns C's rows. A slot's row
// part holds B's slice as 32-column boxes of 32 K-rows; its column part A's slice (64-row
// boxes, K-major), which the blocks of a cluster share by multicast.
struct SwappedOperands {
  static constexpr int kSliceK = kSliceFloats;
  __device__ static void load_rows(unsigned char* to, const CUtensorMap* b_map, std::uint64_t* full,
                                   int k0, int n0, int columns) {
    for (int box = 0; box < columns / 32; ++box) {
      tma_load(to + box * kBBoxBytes, b_map, full, n0 + box * 32, k0);
    }
  }
  // The column part's boxes (load_slice calls them B's: here they are A's): 32 K-columns x 64
  // rows, the one for rows m.. of slice k0.. at (column k0, row m) of A.
  __device__ static int2 b_box(int k0, int m) { return make_int2(k0, m); }
};

// C^T's shape, whose tiles the swapped kernel walks.
__host__ __device__ inline Matrix transposed_shape(const Matrix& c) {
  return Matrix{c.height, c.width, 0, nullptr};
}

// A 32-bit load from and a store to a shared-memory address: through a pointer that went
// through integer arithmetic (align_to_swizzle) the compiler emits generic loads with 64-bit
// addresses. Volatile, so that they stay between the barrier waits around them.
__device__ inline std::uint32_t shared_load_b32(std::uint32_t address) {
  std::uint32_t value;
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(value) : "r"(address) : "memory");
  return value;
}
__device__ inline void shared_store_f32(std::uint32_t address, float value) {
  asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(address), "f"(value) : "memory");
}

// The column of B that a lane's fragment row holds (mma.m16n8k8's layout: lane l holds rows
// l / 4 and l / 4 + 8): any 16 of the consumer's 64 columns would do, and these make every load
// free of bank conflicts (README.md, section 3). The store puts each result back in its column.
__device__ inline int column_of_row(int warp, int half, int lane) {
  const int row = lane / 4;
  return 32 * (warp / 2) + 16 * (row / 4) + 4 * (2 * (warp % 2) + half) + row % 4;
}

// Byte offset of element (k, n) in 32-column boxes of Rows 128-byte lines, swizzled (a B slice:
// 32 K-rows; a staging buffer of C: 64 rows of C).
template <int Rows>
__device__ inline int swizzled_byte(int k, int n) {
  return n / 32 * Rows * kSliceRowBytes + k * kSliceRowBytes + ((n % 32 / 4) ^ (k % 8)) * 16 +
         n % 4 * 4;
}

// One consumer: acc (64 columns of B x N rows of A) += its 64 columns of the B slice, loaded
// into `fragments` (not those of a product still in flight), times the slot's A part, committed
// as one group. The commit stays in here, in each of the caller's two branches: after them,
// ptxas adds an empty product (C7519) and no two slices overlap (README.md, section 3).
template <int N>
__device__ inline void multiply_slice_swapped(const unsigned char* b_columns, const float* a_rows,
                                              std::uint32_t (&fragments)[4][4], float (&acc)[N / 2],
                                              bool accumulate, int thread) {
  const int warp = thread / 32;
  const int lane = thread % 32;
  const std::uint32_t base = shared_address(b_columns);
#pragma unroll
  for (int step = 0; step < kSliceFloats / 8; ++step) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {  // a0..a3: rows +0 / +8, K-columns +0 / +4
      const int n = column_of_row(warp, i % 2, lane);
      const int k = step * 8 + lane % 4 + i / 2 * 4;
      fragments[step][i] = shared_load_b32(base + swizzled_byte<32>(k, n));
    }
  }
  wgmma_fence();  // the loads above, before the products that read them
#pragma unroll
  for (int step = 0; step < kSliceFloats / 8; ++step) {
    const std::uint64_t a = descriptor(a_rows + step * 8, 16, kSwizzleAtomBytes);
    wgmma_m64n256k8_tf32_a_registers(acc, fragments[step], a, (accumulate || step > 0) ? 1 : 0);
  }
  wgmma_commit();
}

// Store, through TMA: the consumer's 64 columns x N rows of C, in passes of 64 rows written
// into the staging buffer as C's rows, which one thread stores, clipped at C's edges.
template <int N>
__device__ inline void store_transposed_through_tma(const CUtensorMap* c_map,
                                                    unsigned char* staging,
                                                    const float (&acc)[N / 2], int m0, int n0,
                                                    int thread, int barrier_id) {
  const int warp = thread / 32;
  const int lane = thread % 32;
  const std::uint32_t base = shared_address(staging);
#pragma unroll
  for (int pass = 0; pass < N / 64; ++pass) {
    if (thread == 0) bulk_wait_read();  // the last pass's boxes have left the buffer
    sync_threads(barrier_id, 128);
#pragma unroll
    for (int group = 0; group < 8; ++group) {  // 8-row groups of C in this pass
      const int j = pass * 8 + group;
#pragma unroll
      // d0..d3: C's row +0 / +1 (D's column), C's column from D's row +0 / +8
      for (int i = 0; i < 4; ++i) {
        const int m = group * 8 + lane % 4 * 2 + i % 2;
        const int n = column_of_row(warp, i / 2, lane);
        shared_store_f32(base + swizzled_byte<64>(m, n), acc[j * 4 + i]);
      }
    }
    fence_shared_for_tma();
    sync_threads(barrier_id, 128);
    if (thread == 0) {
      tma_store(c_map, staging, n0, m0 + pass * 64);
      tma_store(c_map, staging + 64 * kSliceRowBytes, n0 + 32, m0 + pass * 64);
      bulk_commit();
    }
  }
}

// The same, straight from registers, guarded at C's edges: for a C that TMA cannot store into.
template <int N>
__device__ inline void store_transposed(const Matrix& c, const float (&acc)[N / 2], int m0, int n0,
                                        int thread) {
  const int warp = thread / 32;
  const int lane = thread % 32;
#pragma unroll
  for (int j = 0; j < N / 8; ++j) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int m = m0 + j * 8 + lane % 4 * 2 + i % 2;
      const int n = n0 + column_of_row(warp, i / 2, lane);
      if (m < c.height && n < c.width) {
        c.data[static_cast<std::size_t>(m) * c.stride + n] = acc[j * 4 + i];
      }
    }
  }
}

// The persistent kernel on the swapped product: tiles of BlockM columns of C by BlockN rows, a
// cluster's blocks side by side along C's columns.
template <class Cfg, bool TmaStore>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_tf32_swapped(const __grid_constant__ CUtensorMap b_map,
                      const __grid_constant__ CUtensorMap a_map,
                      const __grid_constant__ CUtensorMap c_map, int k, Matrix c) {
  static_assert(Cfg::kConsumerRows == 64 && Cfg::kBlockN == 256,
                "one m64n256 product a consumer (wgmma_m64n256k8_tf32_a_registers)");
  constexpr int kSlots = Cfg::kSlots;
  extern __shared__ unsigned char shared[];
  const SharedLayout<Cfg> layout(shared);
  const std::uint32_t rank = Cfg::kClusterM > 1 ? rank_in_cluster() : 0;
  init_barriers(layout);

  const TileOrder<Cfg> order(transposed_shape(c));
  const int cluster = blockIdx.x / Cfg::kClusterM;
  const int step = gridDim.x / Cfg::kClusterM;
  const int slices = (k + kSliceFloats - 1) / kSliceFloats;

  if (threadIdx.x / 128 == 0) {
    registers_decrease<kProducerRegisters>();
    load_tiles<SwappedOperands>(layout, &b_map, &a_map, order, cluster, step, slices, rank);
  } else {
    registers_increase<kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
    float acc[Cfg::kBlockN / 2];
    std::uint32_t even[4][4];  // the B fragments of even slices, and of odd ones: a slice's
    std::uint32_t odd[4][4];   // loads must not overwrite those of the product in flight
    int it = 0;
    for (int t = cluster; t < order.count(); t += step) {
      const auto [n0, m0] = order.origin(t, rank);
      for (int s = 0; s < slices; ++s, ++it) {
        const unsigned char* slot = layout.ring + it % kSlots * Cfg::kSlotBytes;
        barrier_wait(&layout.full[it % kSlots], it / kSlots % 2);
        const unsigned char* b_columns = slot + consumer * 64 * kSliceRowBytes;
        const auto* a_rows = reinterpret_cast<const float*>(slot + Cfg::kSliceABytes);
        if (s % 2 == 0) {
          multiply_slice_swapped<Cfg::kBlockN>(b_columns, a_rows, even, acc, s > 0, thread);
        } else {
          multiply_slice_swapped<Cfg::kBlockN>(b_columns, a_rows, odd, acc, s > 0, thread);
        }
        wgmma_wait<1>();  // the slice before this one is done: its slot and registers are free
        if (s > 0) release_slot(layout, it - 1, thread);
      }
      wgmma_wait<0>();
      release_slot(layout, it - 1, thread);
      const int consumer_n0 = n0 + consumer * 64;
      if constexpr (TmaStore) {
        unsigned char* staging = layout.staging + consumer * kStagingBytes;
        store_transposed_through_tma<Cfg::kBlockN>(&c_map, staging, acc, m0, consumer_n0, thread,
                                                   1 + consumer);
      } else {
        store_transposed<Cfg::kBlockN>(c, acc, m0, consumer_n0, thread);
      }
    }
    if constexpr (TmaStore) {
      if (thread == 0) bulk_wait_done();
    }
  }
  if constexpr (Cfg::kClusterM > 1) cluster_sync();
}

// Stage 19's Wide or WideAlone: 128 columns of C (two consumers of 64) by 256 rows.
template <class Cfg>
void launch_swapped(Matrix a, Matrix b, Matrix c) {
  const bool tma_store = allows_tma_store(c);
  auto kernel = tma_store ? gemm_tf32_swapped<Cfg, true> : gemm_tf32_swapped<Cfg, false>;
  const CUtensorMap b_map = make_tensor_map_2d(b, 32, 32);
  const CUtensorMap a_map = make_tensor_map_2d(a, kSliceFloats, 64);
  // Without the TMA store the kernel never reads c_map; A's map stands in for it.
  const CUtensorMap c_map = tma_store ? make_store_tensor_map_2d(c, 32, 64) : a_map;
  const long long tiles = cluster_tiles<Cfg>(transposed_shape(c));
  const long long clusters =
      even_rounds_clusters(tiles, resident_clusters_of<Cfg>(gemm_tf32_swapped<Cfg, true>));
  launch_in_clusters<Cfg>(kernel, clusters, b_map, a_map, c_map, a.width, c);
}

}  // namespace

// Stage 19's rule: clusters pay only past one wave.
void launch_tf32_swapped_by_size(Matrix a, Matrix b, Matrix c) {
  const long long tiles = cluster_tiles<WideAlone>(transposed_shape(c));
  if (tiles > resident_clusters_of<WideAlone>(gemm_tf32_swapped<WideAlone, true>)) {
    launch_swapped<Wide>(a, b, c);
  } else {
    launch_swapped<WideAlone>(a, b, c);
  }
}

void launch_tf32_swapped_pairs(Matrix a, Matrix b, Matrix c) { launch_swapped<Wide>(a, b, c); }

void launch_tf32_swapped_alone(Matrix a, Matrix b, Matrix c) { launch_swapped<WideAlone>(a, b, c); }

}  // namespace ladder
