#include "21_gpu_stream_k/kernel.hpp"

#include <iterator>
#include <string>
#include <vector>

#include "21_gpu_stream_k/model_constants.hpp"
#include "common/config_table.hpp"
#include "common/hopper/bf16_operands.cuh"
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

namespace ladder {
namespace {

using namespace hopper;
using namespace persistent;

// Stage 19's kernel walking parts of tiles: a part that does not finish its tile saves its sums
// and sets its flag; the finishing part adds the others' sums in a fixed order, waiting only for
// lower-numbered clusters, then stores (meet_parts; README.md, B). Divided: any tile cut.
template <class Cfg, bool TmaStore, bool Divided>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_stream_k(const __grid_constant__ CUtensorMap a_map,
                  const __grid_constant__ CUtensorMap b_map,
                  const __grid_constant__ CUtensorMap c_map, Matrix c, const Division division,
                  const PartialTiles work) {
  static_assert(Cfg::kConsumerRows == 64, "one 64-row strip per consumer");
  constexpr int kSlots = Cfg::kSlots;
  constexpr int kClusterM = Cfg::kClusterM;
  constexpr int kN = Cfg::kBlockN;
  extern __shared__ unsigned char shared[];
  const SharedLayout<Cfg> layout(shared);  // stage 19's (persistent.cuh)
  const std::uint32_t rank = kClusterM > 1 ? rank_in_cluster() : 0;
  init_barriers(layout);

  const TileOrder<Cfg> order(c);
  const int cluster = blockIdx.x / kClusterM;

  if (threadIdx.x / 128 == 0) {
    // Producer: stage 19's, over the slices of each part.
    if constexpr (Cfg::kConsumers == 2) registers_decrease<kProducerRegisters>();  // split for two
    if (threadIdx.x == 0) {
      load_parts<Bf16Operands>(layout, &a_map, &b_map, order,
                               walk_parts<Divided>(division, order.count(), cluster), rank);
    }
  } else {
    // Consumers: stage 19's product over each part's slices, then the part's end.
    if constexpr (Cfg::kConsumers == 2) registers_increase<kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
    const int barrier_id = 1 + consumer;
    auto release = [&](int it) { release_slot(layout, it, thread); };
    float acc[kN / 2];
    int it = 0;
    auto walk = walk_parts<Divided>(division, order.count(), cluster);
    Part part{};
    while (walk.next(part)) {
      const auto [row0, col0] = order.origin(part.tile, rank);
      for (int s = part.k_begin; s < part.k_end; ++s, ++it) {
        const unsigned char* slot = layout.ring + it % kSlots * Cfg::kSlotBytes;
        barrier_wait(&layout.full[it % kSlots], it / kSlots % 2);
        wgmma_fence();
        Bf16Operands::multiply<kN>(slot + consumer * 64 * kSliceRowBytes, slot + Cfg::kSliceABytes,
                                   acc, s > part.k_begin);
        wgmma_commit();
        wgmma_wait<1>();
        if (s > part.k_begin) release(it - 1);
      }
      wgmma_wait<0>();
      release(it - 1);

      if constexpr (Divided) {
        if (!meet_parts<Cfg, kN>(work, division, part, cluster, rank, consumer, acc, thread)) {
          continue;
        }
      }
      // Store, as stage 19's.
      const int strip_row = row0 + consumer * 64;
      if constexpr (TmaStore) {
        store_strip_through_tma<kN>(&c_map, layout.staging + consumer * kStagingBytes, acc,
                                    strip_row, col0, thread, barrier_id);
      } else {
        store_strip<kN>(c, acc, strip_row, col0, thread);
      }
    }
    if constexpr (TmaStore) {
      if (thread == 0) bulk_wait_done();
    }
  }
  if constexpr (kClusterM > 1) cluster_sync();
}

static_assert(kSliceK == stream_k_model::kModel.slice_k, "the model counts divide()'s slices");

template <class Cfg, Scheme kScheme>
void launch(MatrixBf16 a, MatrixBf16 b, Matrix c, const StreamKWorkspace& workspace) {
  const Division division =
      divide(cluster_tiles<Cfg>(c), (a.width + kSliceK - 1) / kSliceK,
             resident_clusters_of<Cfg>(gemm_stream_k<Cfg, true, false>), kScheme,
             stream_k_model::kModel.max_split);
  const CUtensorMap a_map = make_tensor_map_2d(a, kSliceK, Cfg::kBlockM);
  const CUtensorMap b_map = Bf16Operands::b_map(b);
  const bool tma_store = allows_tma_store(c);
  // Without the TMA store the kernel never reads c_map; A's map stands in for it.
  const CUtensorMap c_map = tma_store ? make_store_tensor_map_2d(c, 32, 64) : a_map;
  if (division.whole_tiles == division.tiles) {
    const auto kernel =
        tma_store ? gemm_stream_k<Cfg, true, false> : gemm_stream_k<Cfg, false, false>;
    launch_in_clusters<Cfg>(kernel, division.clusters, a_map, b_map, c_map, c, division,
                            PartialTiles{nullptr, nullptr, 0});  // whole tiles meet no others
    return;
  }
  if constexpr (kScheme != Scheme::data_parallel) {
    const auto kernel =
        tma_store ? gemm_stream_k<Cfg, true, true> : gemm_stream_k<Cfg, false, true>;
    launch_in_clusters<Cfg>(kernel, division.clusters, a_map, b_map, c_map, c, division,
                            partial_tiles_for_launch<Cfg>(workspace));
  }
}

// The tilings: persistent.cuh's (stage 19's four and the 64-row ones, README.md, C) and
// narrower tiles that fill more SMs, with deeper rings.
using Half = Config<128, 128, 64, 1, true, 6>;
using Quarter = Config<128, 64, 64, 1, true, 8>;

void launch_by_shape(MatrixBf16 a, MatrixBf16 b, Matrix c, const StreamKWorkspace& workspace);

// A variant: its name, its launch, and what the model prices (the tiling and the scheme).
struct Variant {
  const char* name;
  void (*launch)(MatrixBf16 a, MatrixBf16 b, Matrix c, const StreamKWorkspace& workspace);
  Candidate priced;
};

// A variant of Cfg's tiles divided by `scheme`, priced as what it runs.
template <class Cfg, Scheme kScheme>
constexpr Variant variant(const char* name) {
  return {name, launch<Cfg, kScheme>, {Cfg::kBlockN, Cfg::kClusterM, kScheme, Cfg::kBlockM}};
}

// The default, then its choices and their ablations.
constexpr Variant kVariants[] = {
    {"by_shape", launch_by_shape, {}},
    variant<Wide, Scheme::data_parallel>("128x256_c2_dp"),
    variant<Wide, Scheme::split_k>("128x256_c2_split"),
    variant<Wide, Scheme::stream_k>("128x256_c2_stream"),
    variant<WideAlone, Scheme::data_parallel>("128x256_c1_dp"),
    variant<Narrow, Scheme::data_parallel>("128x192_c2_dp"),
    variant<NarrowAlone, Scheme::data_parallel>("128x192_c1_dp"),
    variant<Half, Scheme::data_parallel>("128x128_c1_dp"),
    variant<Half, Scheme::split_k>("128x128_c1_split"),
    variant<Half, Scheme::stream_k>("128x128_c1_stream"),
    variant<Quarter, Scheme::data_parallel>("128x64_c1_dp"),
    variant<Quarter, Scheme::split_k>("128x64_c1_split"),
    variant<ShortWide, Scheme::data_parallel>("64x256_c1_dp"),
    variant<ShortWide, Scheme::split_k>("64x256_c1_split"),
    variant<ShortHalf, Scheme::data_parallel>("64x128_c1_dp"),
    variant<ShortHalf, Scheme::split_k>("64x128_c1_split"),
};
static_assert(kVariants[0].launch == launch_by_shape,
              "by_shape comes first: its choice i runs kVariants[i + 1]");

// by_shape: the variant the model predicts fastest on this GPU (on a tie, the first).
void launch_by_shape(MatrixBf16 a, MatrixBf16 b, Matrix c, const StreamKWorkspace& workspace) {
  static const std::vector<Candidate> candidates = stream_k_candidates();
  const ModelGpu gpu = current_gpu(resident_clusters_of<Wide>(gemm_stream_k<Wide, true, false>));
  kVariants[kept_fastest(stream_k_model::kModel, c.height, c.width, a.width, gpu, candidates) + 1]
      .launch(a, b, c, workspace);
}

}  // namespace

std::vector<std::string> stream_k_configs() { return config_names(kVariants); }

std::vector<Candidate> stream_k_candidates() {
  std::vector<Candidate> candidates;
  for (auto v = std::begin(kVariants) + 1; v != std::end(kVariants); ++v) {
    candidates.push_back(v->priced);
  }
  return candidates;
}

OperandPath launch_gemm_stream_k(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c,
                                 const StreamKWorkspace& workspace) {
  const Variant& variant = find_config(kVariants, config, "stage 21 has no variant");
  check_gemm_shapes(a, b, c);
  require_hopper();
  check_workspace_device(workspace, "stage 21");
  return launch_on_readable_rows(a, b, c, [&](MatrixBf16 a_rows, MatrixBf16 b_rows) {
    variant.launch(a_rows, b_rows, c, workspace);
  });
}

}  // namespace ladder
