#include "21_gpu_stream_k/kernel.hpp"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "21_gpu_stream_k/model_constants.hpp"
#include "common/config_table.hpp"
#include "common/cuda_check.hpp"
#include "common/hopper/cluster.cuh"
#include "common/hopper/cluster_launch.hpp"
#include "common/hopper/mbarrier.cuh"
#include "common/hopper/persistent.cuh"
#include "common/hopper/persistent_kernel.cuh"
#include "common/hopper/persistent_rule.cuh"
#include "common/hopper/tile_model.hpp"
#include "common/hopper/tma.cuh"
#include "common/hopper/tma_readable.hpp"
#include "common/hopper/warp_specialization.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/tensor_cores.hpp"
#include "common/tensor_map.hpp"

namespace ladder {
namespace {

using namespace hopper;
using namespace persistent;

// How a launch divides its tiles (in stage 19's order) among its clusters, worked out on the host.
struct Division {
  int tiles;        // cluster tiles
  int slices;       // 64-deep slices of K in each
  int clusters;     // clusters launched
  int whole_tiles;  // tiles [0, whole_tiles) go whole, round-robin over the clusters (stage 19)
  // Split-K (split > 0): every later tile is cut into `split` ranges of slices; cluster u
  // takes range u % split of tile whole_tiles + u / split. Stream-K (split == 0): the later
  // iterations (tile * slices + slice) are cut into one run per cluster, stream_share long
  // (stream_extra of them one longer).
  int split;
  long long stream_begin;
  long long stream_share;
  int stream_extra;
};

// Where cluster g's Stream-K run starts; g == clusters gives the end of the last run.
__device__ inline long long stream_start(const Division& d, int g) {
  return d.stream_begin + g * d.stream_share + min(g, d.stream_extra);
}

// Slices [k_begin, k_end) of one tile.
struct Part {
  int tile;
  int k_begin;
  int k_end;
};

// The parts one cluster computes, in order: its whole tiles, then its split-K range, or its
// Stream-K run walked from its end back (README.md, A).
class PartWalk {
 public:
  __device__ PartWalk(const Division& d, int cluster)
      : d_(d), cluster_(cluster), tile_(cluster), iteration_(stream_start(d, cluster + 1)) {}

  __device__ bool next(Part& part) {
    if (tile_ < d_.whole_tiles) {
      part = {tile_, 0, d_.slices};
      tile_ += d_.clusters;
      return true;
    }
    if (d_.split > 0) {
      if (split_taken_ || cluster_ >= (d_.tiles - d_.whole_tiles) * d_.split) return false;
      split_taken_ = true;
      const int range = cluster_ % d_.split;
      part = {d_.whole_tiles + cluster_ / d_.split, range * d_.slices / d_.split,
              (range + 1) * d_.slices / d_.split};
      return true;
    }
    const long long begin = stream_start(d_, cluster_);
    if (iteration_ <= begin) return false;
    const int tile = static_cast<int>((iteration_ - 1) / d_.slices);
    const long long tile_begin = static_cast<long long>(tile) * d_.slices;
    const long long part_begin = begin > tile_begin ? begin : tile_begin;
    part = {tile, static_cast<int>(part_begin - tile_begin),
            static_cast<int>(iteration_ - tile_begin)};
    iteration_ = part_begin;
    return true;
  }

 private:
  Division d_;
  int cluster_;
  int tile_;
  long long iteration_;
  bool split_taken_ = false;
};

// The part that stores its tile: the one with its last slice. Every other part of the tile
// belongs to a lower-numbered cluster and leaves its sums in the workspace for it.
__device__ inline bool finishes_tile(const Division& d, const Part& p) {
  return p.k_end == d.slices;
}

// The clusters [first, end) whose partial sums the finishing part of a tile adds, in this
// order, every run: the tile's other split-K ranges, or the earlier Stream-K runs that cover
// the tile's first slices.
__device__ inline int2 contributors(const Division& d, int cluster, const Part& p) {
  if (p.k_begin == 0) return make_int2(0, 0);
  if (d.split > 0) return make_int2(cluster - d.split + 1, cluster);
  const long long tile_begin = static_cast<long long>(p.tile) * d.slices;
  int first = cluster - 1;
  while (stream_start(d, first) > tile_begin) --first;
  return make_int2(first, cluster);
}

// Sets the flag to this launch's number (README.md, B), publishing this thread's earlier writes
// (and, after a barrier, its block's) to any thread on the GPU that reads it with flag_wait.
__device__ inline void flag_set(int* flag, unsigned launch) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(flag), "r"(launch) : "memory");
}
// Waits until this launch has set the flag; the writes published before it was set are then
// visible to this thread (and, after a barrier, to its block).
__device__ inline void flag_wait(const int* flag, unsigned launch) {
  unsigned value = 0;
  do {
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(value) : "l"(flag) : "memory");
  } while (value != launch);
}

// A consumer's sums as wgmma left them in its registers, to or from its slot of the workspace:
// thread t's float4 v at v * 128 + t, so that every warp writes and reads whole 128-byte lines.
template <int N>
__device__ inline void save_partial(float4* slot, const float (&acc)[N / 2], int thread) {
#pragma unroll
  for (int v = 0; v < N / 8; ++v) {
    slot[v * 128 + thread] =
        make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]);
  }
}
template <int N>
__device__ inline void add_partial(const float4* slot, float (&acc)[N / 2], int thread) {
#pragma unroll
  for (int v = 0; v < N / 8; ++v) {
    const float4 p = __ldcg(&slot[v * 128 + thread]);  // from L2: another SM wrote it
    acc[4 * v] += p.x;
    acc[4 * v + 1] += p.y;
    acc[4 * v + 2] += p.z;
    acc[4 * v + 3] += p.w;
  }
}

// Stage 19's kernel walking parts of tiles: a part that does not finish its tile saves its sums
// and sets its flag; the finishing part adds the others' sums in the fixed order, then stores.
// It waits only for lower-numbered clusters, so every wait ends (README.md, B).
template <class Cfg, bool TmaStore>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_stream_k(const __grid_constant__ CUtensorMap a_map,
                  const __grid_constant__ CUtensorMap b_map,
                  const __grid_constant__ CUtensorMap c_map, Matrix c, const Division division,
                  float4* partials, int* flags, unsigned launch) {
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
    registers_decrease<kProducerRegisters>();
    if (threadIdx.x == 0) {
      int it = 0;
      PartWalk walk(division, cluster);
      Part part{};
      while (walk.next(part)) {
        const auto [row0, col0] = order.origin(part.tile, rank);
        for (int s = part.k_begin; s < part.k_end; ++s, ++it) {
          load_slice<Bf16Operands>(layout, &a_map, &b_map, it, s, row0, col0, rank);
        }
      }
    }
  } else {
    // Consumers: stage 19's product over each part's slices, then the part's end.
    registers_increase<kConsumerRegisters>();
    const int consumer = threadIdx.x / 128 - 1;
    const int thread = threadIdx.x % 128;
    const int barrier_id = 1 + consumer;
    auto release = [&](int it) { release_slot(layout, it, thread); };
    // This consumer's slot of the workspace and its flag, for cluster g's partial sums.
    auto slot_of = [&](int g) {
      return (g * kClusterM + static_cast<int>(rank)) * Cfg::kConsumers + consumer;
    };
    float acc[kN / 2];
    int it = 0;
    PartWalk walk(division, cluster);
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

      if (!finishes_tile(division, part)) {
        // Save: every thread's sums, then (after all 128 have written) the flag.
        const int mine = slot_of(cluster);
        save_partial<kN>(partials + static_cast<long long>(mine) * kN / 8 * 128, acc, thread);
        __threadfence();
        sync_threads(barrier_id, 128);
        if (thread == 0) flag_set(&flags[mine], launch);
        continue;
      }
      // Fix up: the other parts' sums, in the fixed order.
      const int2 from = contributors(division, cluster, part);
      for (int g = from.x; g < from.y; ++g) {
        const int theirs = slot_of(g);
        if (thread == 0) flag_wait(&flags[theirs], launch);
        sync_threads(barrier_id, 128);
        add_partial<kN>(partials + static_cast<long long>(theirs) * kN / 8 * 128, acc, thread);
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

// The division of c's tiles by `scheme` among the clusters that fit (README.md, A); where split-K
// or Stream-K would divide nothing, the tiles go whole, as data-parallel's.
static_assert(kSliceK == stream_k_model::kModel.slice_k,
              "the model counts the slices divide() cuts");

template <class Cfg>
Division divide(const Matrix& c, int k, Scheme scheme) {
  const int resident = resident_clusters_of<Cfg>(gemm_stream_k<Cfg, true>);
  Division d{};
  d.tiles = static_cast<int>(cluster_tiles<Cfg>(c));
  d.slices = (k + kSliceK - 1) / kSliceK;
  d.clusters = static_cast<int>(even_rounds_clusters(d.tiles, resident));
  d.whole_tiles = d.tiles;
  d.split = 1;
  d.stream_begin = static_cast<long long>(d.tiles) * d.slices;
  const int rest = d.tiles % resident;
  if (scheme == Scheme::split_k) {
    const int split = split_ways(d.tiles, resident, d.slices);
    if (split > 1) {
      d.clusters = resident;
      d.whole_tiles = d.tiles - rest;
      d.split = split;
    }
  }
  if (scheme == Scheme::stream_k && rest != 0) {
    const int whole = std::max(0, d.tiles / resident - 1) * resident;
    const long long iterations = static_cast<long long>(d.tiles - whole) * d.slices;
    if (iterations >= resident) {
      d.clusters = resident;
      d.whole_tiles = whole;
      d.split = 0;
      d.stream_begin = static_cast<long long>(whole) * d.slices;
      d.stream_share = iterations / resident;
      d.stream_extra = static_cast<int>(iterations % resident);
    }
  }
  return d;
}

// Per block (one per SM): a 128 x 256 FP32 partial tile, as its two consumers' 64 x 256 slots,
// and a flag for each.
constexpr std::size_t kPartialBytesPerBlock = 128 * 256 * sizeof(float);
constexpr std::size_t kFlagBytesPerBlock = 2 * sizeof(int);

int current_device() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// A number no other launch in this process has used (until 2^32 launches wrap it), never 0, the
// value a workspace's flags start with.
unsigned next_launch_number() {
  static std::atomic<unsigned> last{0};
  unsigned number = ++last;
  while (number == 0) number = ++last;
  return number;
}

template <class Cfg, Scheme kScheme>
void launch(MatrixBf16 a, MatrixBf16 b, Matrix c, const StreamKWorkspace& workspace) {
  const bool tma_store = allows_tma_store(c);
  auto kernel = tma_store ? gemm_stream_k<Cfg, true> : gemm_stream_k<Cfg, false>;
  const Division division = divide<Cfg>(c, a.width, kScheme);
  // A slot of 64 x kBlockN sums per consumer: the workspace holds 128 x 256 per block.
  static_assert(Cfg::kBlockM * Cfg::kBlockN <= 128 * 256 && Cfg::kConsumers == 2,
                "a partial tile the workspace holds");
  const CUtensorMap a_map = make_tensor_map_2d(a, kSliceK, Cfg::kBlockM);
  const CUtensorMap b_map = Bf16Operands::b_map(b);
  // Without the TMA store the kernel never reads c_map; A's map stands in for it.
  const CUtensorMap c_map = tma_store ? make_store_tensor_map_2d(c, 32, 64) : a_map;
  launch_in_clusters<Cfg>(kernel, division.clusters, a_map, b_map, c_map, c, division,
                          reinterpret_cast<float4*>(workspace.partials()), workspace.flags(),
                          next_launch_number());
}

// The tilings: stage 19's Wide (128 x 256 in clusters of two), and narrower tiles that fill
// more SMs, with deeper rings (the shared memory their narrower slots leave).
using Half = Config<128, 128, 64, 1, 8, true, true, true, 6>;
using Quarter = Config<128, 64, 64, 1, 8, true, true, true, 8>;

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
  return {name, launch<Cfg, kScheme>, {Cfg::kBlockN, Cfg::kClusterM, kScheme}};
}

// The default, then its choices and their ablations.
constexpr Variant kVariants[] = {
    {"by_shape", launch_by_shape, {}},
    variant<Wide, Scheme::data_parallel>("128x256_c2_dp"),
    variant<Wide, Scheme::split_k>("128x256_c2_split"),
    variant<Wide, Scheme::stream_k>("128x256_c2_stream"),
    variant<Half, Scheme::data_parallel>("128x128_c1_dp"),
    variant<Half, Scheme::split_k>("128x128_c1_split"),
    variant<Half, Scheme::stream_k>("128x128_c1_stream"),
    variant<Quarter, Scheme::data_parallel>("128x64_c1_dp"),
    variant<Quarter, Scheme::split_k>("128x64_c1_split"),
};
static_assert(kVariants[0].launch == launch_by_shape,
              "by_shape comes first: its choice i > 0 runs kVariants[i]");

// by_shape: the model's choice on this GPU among stage 19's default (launch_best), priced as
// the whole tiles it would run on c, and the variants after by_shape: candidate i is
// kVariants[i] but for the first, which stands in by_shape's place. On a tie the first runs.
void launch_by_shape(MatrixBf16 a, MatrixBf16 b, Matrix c, const StreamKWorkspace& workspace) {
  static const std::vector<Candidate> variants = stream_k_candidates();
  const PersistentTiling whole = best_tiling<Bf16Operands>(c);
  std::vector<Candidate> candidates = {{whole.narrow ? Narrow::kBlockN : Wide::kBlockN,
                                        whole.clusters ? Wide::kClusterM : 1,
                                        Scheme::data_parallel}};
  candidates.insert(candidates.end(), variants.begin(), variants.end());
  const ModelGpu gpu = current_gpu(resident_clusters_of<Wide>(gemm_stream_k<Wide, true>));
  const int choice = fastest(stream_k_model::kModel, c.height, c.width, a.width, gpu, candidates);
  if (choice == 0) {
    launch_best<Bf16Operands>(a, b, c);
  } else {
    kVariants[choice].launch(a, b, c, workspace);
  }
}

}  // namespace

StreamKWorkspace::StreamKWorkspace()
    : device_(current_device()), blocks_(device_attribute(cudaDevAttrMultiProcessorCount)) {
  try {
    CUDA_CHECK(cudaMalloc(&partials_, partial_bytes()));
    CUDA_CHECK(cudaMalloc(&flags_, flag_count() * sizeof(int)));
    CUDA_CHECK(cudaMemset(flags_, 0, flag_count() * sizeof(int)));
  } catch (...) {
    cudaFree(flags_);  // cudaFree(nullptr) does nothing
    cudaFree(partials_);
    throw;
  }
}

StreamKWorkspace::~StreamKWorkspace() {
  cudaFree(flags_);
  cudaFree(partials_);
}

std::size_t StreamKWorkspace::partial_bytes() const { return blocks_ * kPartialBytesPerBlock; }

std::size_t StreamKWorkspace::flag_count() const {
  return blocks_ * kFlagBytesPerBlock / sizeof(int);
}

std::uint64_t StreamKWorkspace::bytes_needed() {
  return device_attribute(cudaDevAttrMultiProcessorCount) *
         (kPartialBytesPerBlock + kFlagBytesPerBlock);
}

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
  if (workspace.device() != current_device()) {
    throw std::invalid_argument("stage 21: the workspace was made on device " +
                                std::to_string(workspace.device()) + ", the product runs on " +
                                std::to_string(current_device()));
  }
  return launch_on_readable_rows(a, b, c, [&](MatrixBf16 a_rows, MatrixBf16 b_rows) {
    variant.launch(a_rows, b_rows, c, workspace);
  });
}

}  // namespace ladder
