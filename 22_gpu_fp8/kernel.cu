#include "22_gpu_fp8/kernel.hpp"

#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "22_gpu_fp8/model_constants.hpp"
#include "22_gpu_fp8/quantize.hpp"
#include "common/config_table.hpp"
#include "common/hopper/cluster.cuh"
#include "common/hopper/cluster_launch.hpp"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/persistent.cuh"
#include "common/hopper/tile_model.hpp"
#include "common/hopper/tile_parts.cuh"
#include "common/hopper/tma.cuh"
#include "common/hopper/tma_readable.hpp"
#include "common/hopper/tma_store.cuh"
#include "common/hopper/warp_specialization.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/tensor_cores.hpp"
#include "common/tensor_map.hpp"
#include "common/tensor_map_fp8.hpp"

namespace ladder {
namespace {

using namespace hopper;
using namespace persistent;

// multiply_slice (warpgroup.cuh) for E4M3: four k32 steps, 32 bytes along A's and B^T's rows.
template <int N>
__device__ inline void multiply_slice_fp8(const unsigned char* a_strip,
                                          const unsigned char* b_t_slot, float (&acc)[N / 2],
                                          bool accumulate) {
  static_assert(N == 128 || N == 192 || N == 256,
                "scripts/wgmma_wrappers.py writes E4M3 n128, n192 and n256");
#pragma unroll
  for (int k = 0; k < kSliceRowBytes / 32; ++k) {
    const std::uint64_t a = descriptor(a_strip + k * 32, 16, kSwizzleAtomBytes);
    const std::uint64_t b = descriptor(b_t_slot + k * 32, 16, kSwizzleAtomBytes);
    const int scale_d = (accumulate || k > 0) ? 1 : 0;
    if constexpr (N == 128) wgmma_m64n128k32_e4m3(acc, a, b, scale_d);
    if constexpr (N == 192) wgmma_m64n192k32_e4m3(acc, a, b, scale_d);
    if constexpr (N == 256) wgmma_m64n256k32_e4m3(acc, a, b, scale_d);
  }
}

// What the kernel multiplies: E4M3 A and B^T, both K-major, in slices 128 bytes deep as BF16's
// (128 elements) and boxes of B^T of 64 such rows, so the slots are stage 19's.
struct E4m3Operands : RowsOfA {
  static constexpr int kSliceK = 128;
  __device__ static int2 b_box(int k0, int n) { return make_int2(k0, n); }
};
static_assert(E4m3Operands::kSliceK == kFp8ScaleBlock, "a slice is one scale block deep");

// The scales the kernel reads: per tensor, each operand's dequantisation factor; per block,
// the factors of A's 1 x 128 blocks (m x slices) and of B^T's 128 x 128 blocks.
struct Scales {
  const Fp8Scale* a = nullptr;
  const Fp8Scale* b = nullptr;
  Matrix a_blocks;
  Matrix b_blocks;
};

// Promote every PromoteEvery slices (0: never); BlockScaled: per-block factors, promoted every
// slice; Parts: the tile's columns multiplied in 1 or 2 parts, one after the other, each
// promoted as soon as it is done, so that the registers hold them (README.md, D); Loads: when
// the per-block factors are loaded.
template <class Cfg, int PromoteEvery, bool BlockScaled, int Parts = 1,
          FactorLoads Loads = FactorLoads::slice_ahead>
struct Fp8Kernel : Cfg {
  static constexpr bool kFactorsAhead = Loads == FactorLoads::slice_ahead;
  static constexpr int kPromoteEvery = BlockScaled ? 1 : PromoteEvery;
  static constexpr bool kPromotes = kPromoteEvery > 0;
  static constexpr bool kBlockScaled = BlockScaled;
  static constexpr int kParts = Parts;
  static constexpr int kPartN = Cfg::kBlockN / Parts;
  // The blocks of B^T (128 rows) a tile's columns lie in: tiles of 128 or 256 start on a
  // block; a 192-wide tile starts on one or halfway through one, and spans two.
  static constexpr bool kOnBlocks = Cfg::kBlockN % kFp8ScaleBlock == 0;
  static constexpr int kBlocksSpanned = kOnBlocks ? Cfg::kBlockN / kFp8ScaleBlock : 2;
  static_assert(Cfg::kConsumerRows == 64, "one 64-row strip per consumer");
  static_assert(Parts == 1 || Parts == 2, "one part, or two (promote_into's two offsets)");
  static_assert(Parts == 1 || kPromoteEvery == 1,
                "parts share one set of accumulators: each is promoted before the next");
  static_assert(!BlockScaled || (kOnBlocks ? kPartN == kFp8ScaleBlock
                                           : Cfg::kBlockN == 192 && Parts == 1),
                "per block, a part is one block of B, or a whole 192-wide tile");
};

// The factors a thread applies at slice s, per block: its two rows' factors of A and those of the
// blocks of B^T the tile spans, 0 past the edges. Loaded a slice ahead (the consumer's loop):
// loaded just before the promotion, their latency from L2 stalled every promotion.
template <class K>
struct SliceFactors {
  float a[2];
  float b[K::kBlocksSpanned];
};
template <class K>
__device__ inline SliceFactors<K> slice_factors(const Scales& scales, int row, int col0, int s) {
  SliceFactors<K> f;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int r = row + half * 8;
    f.a[half] = r < scales.a_blocks.height ? scales.a_blocks.get(r, s) : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < K::kBlocksSpanned; ++i) {
    const int block = col0 / kFp8ScaleBlock + i;
    f.b[i] = block < scales.b_blocks.height ? scales.b_blocks.get(block, s) : 0.0f;
  }
  return f;
}

// What promote_into multiplies a part's sums by: row factor times block factor, for the block
// the part starts in ([0]) and the next one ([1], the same where the part lies in one block).
struct BlockFactors {
  float row[2][2];  // [block][half]
};
template <class K>
__device__ inline BlockFactors part_factors(const SliceFactors<K>& f, int part) {
  BlockFactors factors{};
  const int first = K::kOnBlocks ? part * K::kPartN / kFp8ScaleBlock : 0;
  const int next = K::kOnBlocks ? first : 1;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    factors.row[0][half] = f.a[half] * f.b[first];
    factors.row[1][half] = f.a[half] * f.b[next];
  }
  return factors;
}

// The promotion, on the CUDA cores: sum += acc (times the factors per block) for part `Part` of
// the tile, whose columns from NextFrom on lie in the next block. The thread holds rows row and
// row + 8 of each 8-column group j (acc[4j..4j+3]); a group lies in one block, since tiles
// start on multiples of 64.
template <class K, int Part, int NextFrom>
__device__ inline void promote_into(float (&sum)[K::kBlockN / 2], const float (&acc)[K::kPartN / 2],
                                    const BlockFactors& f) {
  constexpr int kOffset = Part * K::kPartN / 2;
#pragma unroll
  for (int i = 0; i < K::kPartN / 2; ++i) {
    if constexpr (K::kBlockScaled) {
      const float factor = f.row[i / 4 * 8 < NextFrom ? 0 : 1][i % 4 / 2];
      sum[kOffset + i] = fmaf(acc[i], factor, sum[kOffset + i]);
    } else {
      sum[kOffset + i] += acc[i];
    }
  }
}

// promote_into with the part's block boundary known at compile time: a 192-wide tile starts on
// a block (the next one from column 128) or halfway through one (from column 64).
template <class K, int Part>
__device__ inline void promote_part(float (&sum)[K::kBlockN / 2],
                                    const float (&acc)[K::kPartN / 2], const BlockFactors& f,
                                    int col0) {
  if constexpr (K::kBlockScaled && !K::kOnBlocks) {
    if (col0 % kFp8ScaleBlock == 0) {
      promote_into<K, Part, kFp8ScaleBlock>(sum, acc, f);
    } else {
      promote_into<K, Part, kFp8ScaleBlock / 2>(sum, acc, f);
    }
  } else {
    promote_into<K, Part, K::kPartN>(sum, acc, f);
  }
}

// A consumer's strip out to C (stage 19's stores), times the per-tensor factor.
template <int N, bool TmaStore>
__device__ inline void store_scaled(float (&out)[N / 2], float dequantize, const CUtensorMap* c_map,
                                    unsigned char* staging, const Matrix& c, int strip_row,
                                    int col0, int thread, int consumer) {
#pragma unroll
  for (int i = 0; i < N / 2; ++i) out[i] *= dequantize;
  if constexpr (TmaStore) {
    store_strip_through_tma<N>(c_map, staging, out, strip_row, col0, thread, 1 + consumer);
  } else {
    store_strip<N>(c, out, strip_row, col0, thread);
  }
}

// Divided: whether the launch cuts tiles into parts along K, as stage 21's (walk_parts).
template <class K, bool TmaStore, bool Divided>
__global__ void __launch_bounds__(K::kThreads, 1)
    gemm_fp8(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
             const __grid_constant__ CUtensorMap c_map, Matrix c, Scales scales,
             const Division division, const PartialTiles work) {
  constexpr int kSlots = K::kSlots;
  constexpr int N = K::kBlockN;
  extern __shared__ unsigned char shared[];
  const SharedLayout<K> layout(shared);
  const std::uint32_t rank = K::kClusterM > 1 ? rank_in_cluster() : 0;
  init_barriers(layout);

  const TileOrder<K> order(c);
  const int cluster = blockIdx.x / K::kClusterM;

  if (threadIdx.x / 128 == 0) {
    // Producer: the slices of each part the cluster walks (stage 21's).
    if constexpr (K::kConsumers == 2) registers_decrease<kProducerRegisters>();  // split for two
    if (threadIdx.x == 0) {
      load_parts<E4m3Operands>(layout, &a_map, &b_map, order,
                               walk_parts<Divided>(division, order.count(), cluster), rank);
    }
  } else {
    if constexpr (K::kConsumers == 2) registers_increase<kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
    float acc[K::kPartN / 2];  // the tensor cores' partial sums, one part of the tile
    float sum[N / 2];          // the promoted sums (unused without promotion)
    float dequantize = 1.0f;   // per tensor, applied once, at the store
    if constexpr (!K::kBlockScaled) dequantize = scales.a->dequantize * scales.b->dequantize;
    int it = 0;
    auto walk = walk_parts<Divided>(division, order.count(), cluster);
    Part part{};
    while (walk.next(part)) {
      const auto [row0, col0] = order.origin(part.tile, rank);
      const int strip_row = row0 + consumer * 64;
      const int row = strip_row + thread / 32 * 16 + thread % 32 / 4;
      if constexpr (K::kPromotes) {
#pragma unroll
        for (int i = 0; i < N / 2; ++i) sum[i] = 0.0f;
      }
      bool holding = false;  // slot it - 1 still read by a running wgmma group
      // Per block: slice s's factors, loaded during slice s - 1 (a part has a slice at least:
      // K = 0 never launches, launch_on_readable_rows writes its zeros).
      SliceFactors<K> next{};
      if constexpr (K::kBlockScaled && K::kFactorsAhead) {
        next = slice_factors<K>(scales, row, col0, part.k_begin);
      }
      for (int s = part.k_begin; s < part.k_end; ++s, ++it) {
        const unsigned char* slot = layout.ring + it % kSlots * K::kSlotBytes;
        const unsigned char* a_strip = slot + consumer * 64 * kSliceRowBytes;
        const SliceFactors<K> now = next;
        barrier_wait(&layout.full[it % kSlots], it / kSlots % 2);
        // Slices counted from the part's first: promotion windows start with the part.
        const int in_part = s - part.k_begin;
        const bool restart = K::kPromotes ? in_part % K::kPromoteEvery == 0 : in_part == 0;
        const bool promote =
            K::kPromotes &&
            ((in_part + 1) % (K::kPromotes ? K::kPromoteEvery : 1) == 0 || s + 1 == part.k_end);
        // Compute: four k32 steps a part. Then promote the part, or (between promotions) let
        // the group run on while the previous slice's slot goes back.
#pragma unroll
        for (int column_part = 0; column_part < K::kParts; ++column_part) {
          wgmma_fence();
          multiply_slice_fp8<K::kPartN>(
              a_strip, slot + K::kSliceABytes + column_part * K::kPartN * kSliceRowBytes, acc,
              !restart);
          wgmma_commit();
          // The next slice's factors, loaded while the tensor cores finish this one (after the
          // slice's last wgmma.fence, which would wait for them).
          if constexpr (K::kBlockScaled && K::kFactorsAhead) {
            if (column_part == K::kParts - 1 && s + 1 < part.k_end) {
              next = slice_factors<K>(scales, row, col0, s + 1);
            }
          }
          if (!promote) {
            wgmma_wait<1>();
            if (holding) release_slot(layout, it - 1, thread);
            holding = true;
          } else {
            BlockFactors factors{};
            if constexpr (K::kBlockScaled) {
              factors = part_factors<K>(
                  K::kFactorsAhead ? now : slice_factors<K>(scales, row, col0, s), column_part);
            }
            wgmma_wait<0>();
            if (column_part == K::kParts - 1) {
              if (holding) release_slot(layout, it - 1, thread);
              release_slot(layout, it, thread);
              holding = false;
            }
            if (column_part == 0) promote_part<K, 0>(sum, acc, factors, col0);
            if (column_part == 1) promote_part<K, K::kParts - 1>(sum, acc, factors, col0);
          }
        }
      }
      wgmma_wait<0>();  // unconditional: ptxas must see every group done before acc is read
      if (holding) release_slot(layout, it - 1, thread);
      // The part's sums: promoted, or without promotion the accumulators. A part that does not
      // finish its tile leaves them for the one that does (stage 21's meet_parts).
      auto finish = [&, col0 = col0](float(&out)[N / 2]) {
        if constexpr (Divided) {
          if (!meet_parts<K, N>(work, division, part, cluster, rank, consumer, out, thread)) {
            return;
          }
        }
        unsigned char* staging = layout.staging + consumer * kStagingBytes;
        store_scaled<N, TmaStore>(out, dequantize, &c_map, staging, c, strip_row, col0, thread,
                                  consumer);
      };
      if constexpr (K::kPromotes) {
        finish(sum);
      } else {
        static_assert(K::kParts == 1, "without promotion the accumulators are the tile's");
        finish(acc);
      }
    }
    if constexpr (TmaStore) {
      if (thread == 0) bulk_wait_done();
    }
  }
  if constexpr (K::kClusterM > 1) cluster_sync();
}

// K's kernel on c's tiles divided by `scheme` (stage 21's division, common/hopper/tile_parts.hpp),
// the partial tiles in `workspace`.
template <class K, Scheme kScheme>
void launch(MatrixFp8 a, MatrixFp8 b_t, Matrix c, const Scales& scales,
            const StreamKWorkspace& workspace) {
  const int slices = (a.width + E4m3Operands::kSliceK - 1) / E4m3Operands::kSliceK;
  const Division division =
      divide(cluster_tiles<K>(c), slices, resident_clusters_of<K>(gemm_fp8<K, true, false>),
             kScheme, fp8_model::kModel.max_split);
  const CUtensorMap a_map = make_tensor_map_2d(a, E4m3Operands::kSliceK, K::kBlockM);
  const CUtensorMap b_map = make_tensor_map_2d(b_t, E4m3Operands::kSliceK, 64);
  const bool tma_store = allows_tma_store(c);
  // Without the TMA store the kernel never reads c_map; A's map stands in for it.
  const CUtensorMap c_map = tma_store ? make_store_tensor_map_2d(c, 32, 64) : a_map;
  if (division.whole_tiles == division.tiles) {
    const auto kernel = tma_store ? gemm_fp8<K, true, false> : gemm_fp8<K, false, false>;
    launch_in_clusters<K>(kernel, division.clusters, a_map, b_map, c_map, c, scales, division,
                          PartialTiles{nullptr, nullptr, 0});  // whole tiles meet no others
    return;
  }
  if constexpr (kScheme != Scheme::data_parallel) {
    const auto kernel = tma_store ? gemm_fp8<K, true, true> : gemm_fp8<K, false, true>;
    launch_in_clusters<K>(kernel, division.clusters, a_map, b_map, c_map, c, scales, division,
                          partial_tiles_for_launch<K>(workspace));
  }
}

// persistent.cuh's tilings (128 x 256, 128 x 192 and the 64-row ones) and a narrower one. With
// promotion every slice, tiles 256 wide go in two parts of 128 columns.
using Alone128 = Config<128, 128, 64, 1>;

template <class Cfg, int PromoteEvery, int Parts = 1, Scheme kScheme = Scheme::data_parallel>
void launch_per_tensor(MatrixFp8 a, MatrixFp8 b_t, Matrix c, const Scales& scales,
                       const StreamKWorkspace& workspace) {
  launch<Fp8Kernel<Cfg, PromoteEvery, false, Parts>, kScheme>(a, b_t, c, scales, workspace);
}

// Per block: Cfg's tiles, 256-wide ones in two parts (a part is one block of B wide), the
// factors loaded as Loads says.
template <class Cfg, FactorLoads Loads, Scheme kScheme>
void launch_per_block(MatrixFp8 a, MatrixFp8 b_t, Matrix c, const Scales& scales,
                      const StreamKWorkspace& workspace) {
  launch<Fp8Kernel<Cfg, 1, true, Cfg::kBlockN == 256 ? 2 : 1, Loads>, kScheme>(a, b_t, c, scales,
                                                                               workspace);
}

using Fp8Launch = void (*)(MatrixFp8 a, MatrixFp8 b_t, Matrix c, const Scales& scales,
                           const StreamKWorkspace& workspace);

template <Fp8Scaling kScaling, FactorLoads Loads = FactorLoads::slice_ahead>
void launch_by_size(MatrixFp8 a, MatrixFp8 b_t, Matrix c, const Scales& scales,
                    const StreamKWorkspace& workspace);

// A variant: its name, launch, slices of 128 summed between promotions (0: never), and for
// by_size's tilings what the model prices (else block_n 0) and the per-block launches (factors a
// slice ahead, and at the promotion: the ablation).
struct Fp8Variant {
  const char* name;
  Fp8Launch launch;
  int promote_every;
  Candidate priced;
  Fp8Launch per_block[2];
};

// A variant's per-block launch with the factors loaded as `loads` says (null where it has none).
constexpr Fp8Launch per_block_launch(const Fp8Variant& variant, FactorLoads loads) {
  return variant.per_block[loads == FactorLoads::slice_ahead ? 0 : 1];
}

// A tiling by_size chooses among: Cfg's tiles promoted every slice, whole or divided as stage 21's.
template <class Cfg, Scheme kScheme = Scheme::data_parallel>
constexpr Fp8Variant priced_variant(const char* name) {
  constexpr int kParts = Cfg::kBlockN == 256 ? 2 : 1;
  return {name, launch_per_tensor<Cfg, 1, kParts, kScheme>, 1,
          {Cfg::kBlockN, Cfg::kClusterM, kScheme, Cfg::kBlockM},
          {launch_per_block<Cfg, FactorLoads::slice_ahead, kScheme>,
           launch_per_block<Cfg, FactorLoads::at_promotion, kScheme>}};
}

constexpr Fp8Variant kVariants[] = {
    {"by_size", launch_by_size<Fp8Scaling::per_tensor>, 1, {},
     {launch_by_size<Fp8Scaling::per_block, FactorLoads::slice_ahead>,
      launch_by_size<Fp8Scaling::per_block, FactorLoads::at_promotion>}},
    priced_variant<Wide>("128x256_c2_promote1"),
    priced_variant<WideAlone>("128x256_c1_promote1"),
    priced_variant<Narrow>("128x192_c2_promote1"),
    priced_variant<NarrowAlone>("128x192_c1_promote1"),
    priced_variant<Alone128>("128x128_c1_promote1"),
    priced_variant<ShortWide>("64x256_c1_promote1"),
    priced_variant<ShortHalf>("64x128_c1_promote1"),
    priced_variant<Wide, Scheme::split_k>("128x256_c2_split"),
    priced_variant<Wide, Scheme::stream_k>("128x256_c2_stream"),
    priced_variant<NarrowAlone, Scheme::split_k>("128x192_c1_split"),
    priced_variant<NarrowAlone, Scheme::stream_k>("128x192_c1_stream"),
    priced_variant<Alone128, Scheme::split_k>("128x128_c1_split"),
    priced_variant<Alone128, Scheme::stream_k>("128x128_c1_stream"),
    priced_variant<ShortWide, Scheme::split_k>("64x256_c1_split"),
    priced_variant<ShortHalf, Scheme::split_k>("64x128_c1_split"),
    {"128x192_c2_promote2", launch_per_tensor<Narrow, 2>, 2, {}, {}},
    {"128x192_c2_promote4", launch_per_tensor<Narrow, 4>, 4, {}, {}},
    {"128x192_c2_no_promotion", launch_per_tensor<Narrow, 0>, 0, {}, {}},
    {"128x256_c2_no_promotion", launch_per_tensor<Wide, 0>, 0, {}, {}},
};

// The variants by_size chooses among, in kVariants' order, and what the model prices each as.
struct Choices {
  std::vector<int> variants;
  std::vector<Candidate> priced;
};
const Choices& by_size_choices() {
  static const Choices choices = [] {
    Choices all;
    for (int i = 0; i < static_cast<int>(std::size(kVariants)); ++i) {
      if (kVariants[i].priced.block_n == 0) continue;
      all.variants.push_back(i);
      all.priced.push_back(kVariants[i].priced);
    }
    return all;
  }();
  return choices;
}

// by_size: the index in kVariants of the tiling the model predicts fastest for A and B^T, their
// rows as far apart as stored, on `scaling`'s constants (per block's own: the factors cost each
// tiling its own share).
int by_size_choice(Fp8Scaling scaling, MatrixFp8 a, MatrixFp8 b_t, const ModelGpu& gpu) {
  const ModelConstants& constants =
      scaling == Fp8Scaling::per_block ? fp8_model::kBlockModel : fp8_model::kModel;
  const Choices& choices = by_size_choices();
  return choices.variants[kept_fastest(constants, a.height, b_t.height, a.width, gpu,
                                       choices.priced, RowBytes{a.stride, b_t.stride})];
}

// by_size's launch: the model's pick for this GPU (`pairs`: clusters of two 128 x 256 blocks);
// per block, its factors loaded as Loads says.
template <Fp8Scaling kScaling, FactorLoads Loads>
void launch_by_size(MatrixFp8 a, MatrixFp8 b_t, Matrix c, const Scales& scales,
                    const StreamKWorkspace& workspace) {
  using Pairs = Fp8Kernel<Wide, 1, false, 2>;
  const ModelGpu gpu = current_gpu(resident_clusters_of<Pairs>(gemm_fp8<Pairs, true, false>));
  const Fp8Variant& variant = kVariants[by_size_choice(kScaling, a, b_t, gpu)];
  const bool per_block = kScaling == Fp8Scaling::per_block;
  (per_block ? per_block_launch(variant, Loads) : variant.launch)(a, b_t, c, scales, workspace);
}

// The blocks of kFp8ScaleBlock covering `extent` (no extent + 127 to overflow before run's checks).
int scale_blocks(int extent) { return extent / kFp8ScaleBlock + (extent % kFp8ScaleBlock > 0); }

std::string dims(int rows, int columns) {
  return std::to_string(rows) + "x" + std::to_string(columns);
}

// Checks the operands, the GPU and the workspace's device, then runs the product with `tma`, on
// copies of the operands in aligned rows where theirs are not whole 16 bytes (tma_readable.hpp).
OperandPath run(MatrixFp8 a, MatrixFp8 b_t, Matrix c, const Scales& scales,
                const StreamKWorkspace& workspace, Fp8Launch tma) {
  auto shape = [](const auto& m) {
    check_view(Matrix{m.width, m.height, m.stride, nullptr});
    return dims(m.height, m.width);
  };
  const std::string shapes = "A " + shape(a) + ", B^T " + shape(b_t) + ", C " + shape(c);
  if (a.height != c.height || b_t.height != c.width || a.width != b_t.width) {
    throw std::invalid_argument("stage 22: " + shapes + " must be m x k, n x k and m x n");
  }
  require_hopper();
  check_workspace_device(workspace, "stage 22");
  return launch_on_readable_rows(a, b_t, c, [&](MatrixFp8 a_rows, MatrixFp8 b_t_rows) {
    tma(a_rows, b_t_rows, c, scales, workspace);
  });
}

}  // namespace

std::vector<std::string> fp8_configs() { return config_names(kVariants); }

std::vector<Candidate> fp8_priced() {
  std::vector<Candidate> priced;
  for (const Fp8Variant& variant : kVariants) priced.push_back(variant.priced);
  return priced;
}

std::string fp8_by_size_pick(Fp8Scaling scaling, MatrixFp8 a, MatrixFp8 b_t, const ModelGpu& gpu) {
  return kVariants[by_size_choice(scaling, a, b_t, gpu)].name;
}

int fp8_promotion_window(const std::string& config, int k) {
  const Fp8Variant& variant = find_config(kVariants, config, "stage 22 has no variant");
  return variant.promote_every == 0 ? k : variant.promote_every * E4m3Operands::kSliceK;
}

OperandPath launch_gemm_fp8(const std::string& config, ScaledFp8 a, ScaledFp8 b_t, Matrix c,
                            const StreamKWorkspace& workspace) {
  const Fp8Variant& variant = find_config(kVariants, config, "stage 22 has no variant");
  return run(a.values, b_t.values, c, Scales{a.scale, b_t.scale, {}, {}}, workspace,
             variant.launch);
}

std::vector<std::string> fp8_block_configs() {
  std::vector<std::string> names;
  for (const Fp8Variant& variant : kVariants) {
    if (per_block_launch(variant, FactorLoads::slice_ahead)) names.emplace_back(variant.name);
  }
  return names;
}

OperandPath launch_gemm_fp8_block_scaled(BlockScaledFp8 a, BlockScaledFp8 b_t, Matrix c,
                                         const StreamKWorkspace& workspace, FactorLoads loads,
                                         const std::string& config) {
  const Fp8Variant& variant = find_config(kVariants, config, "stage 22 has no variant");
  const Fp8Launch launch = per_block_launch(variant, loads);
  if (launch == nullptr) {
    throw std::invalid_argument("stage 22: '" + config +
                                "' has no per-block kernel; fp8_block_configs() has");
  }
  // The kernels index the factors as any view, with int offsets and the stride.
  check_view(a.dequantize);
  check_view(b_t.dequantize);
  const int slices = scale_blocks(a.values.width);
  const int blocks_n = scale_blocks(b_t.values.height);
  if (a.dequantize.height != a.values.height || a.dequantize.width != slices ||
      b_t.dequantize.height != blocks_n || b_t.dequantize.width != slices) {
    throw std::invalid_argument(
        "stage 22 per-block scales: A's factors must be m x ceil(k / 128) (" +
        dims(a.values.height, slices) + "), B^T's ceil(n / 128) x ceil(k / 128) (" +
        dims(blocks_n, slices) + "), not " + dims(a.dequantize.height, a.dequantize.width) +
        " and " + dims(b_t.dequantize.height, b_t.dequantize.width));
  }
  return run(a.values, b_t.values, c, Scales{nullptr, nullptr, a.dequantize, b_t.dequantize},
             workspace, launch);
}

OperandPath launch_gemm_fp8_from_float(Matrix a, Matrix b, const Fp8Workspace& work, Matrix c,
                                       const StreamKWorkspace& workspace) {
  check_gemm_shapes(a, b, c);
  e4m3_scale_on_device(a, work.a_scale);
  e4m3_scale_on_device(b, work.b_scale);
  quantize_e4m3(a, work.a_scale, work.a);
  quantize_e4m3_transposed(b, work.b_scale, work.b_t);
  return launch_gemm_fp8(kVariants[0].name, {work.a, work.a_scale}, {work.b_t, work.b_scale}, c,
                         workspace);
}

}  // namespace ladder
