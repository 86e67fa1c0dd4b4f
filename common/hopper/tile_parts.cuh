// Tiles cut into parts along K, device side: the parts a cluster walks, which part finishes a tile
// and whose sums it adds, the flags saying a part's sums are in the workspace, and a consumer's
// sums in its slot there (21_gpu_stream_k/README.md, A and B; the host side is tile_parts.hpp).
#pragma once

#include "common/hopper/persistent.cuh"
#include "common/hopper/tile_parts.hpp"
#include "common/hopper/warpgroup.cuh"

namespace ladder::hopper {

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
// Stream-K run walked from its end back (21_gpu_stream_k/README.md, A).
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

// A launch that divides nothing (stage 19's walk): tiles cluster, cluster + clusters, ..., whole.
class WholeTileWalk {
 public:
  __device__ WholeTileWalk(int tiles, int slices, int cluster, int clusters)
      : tiles_(tiles), slices_(slices), tile_(cluster), clusters_(clusters) {}

  __device__ bool next(Part& part) {
    if (tile_ >= tiles_) return false;
    part = {tile_, 0, slices_};
    tile_ += clusters_;
    return true;
  }

 private:
  int tiles_;
  int slices_;
  int tile_;
  int clusters_;
};

// A cluster's walk: PartWalk where the launch divides tiles, else WholeTileWalk (fewer registers).
template <bool Divided>
__device__ inline auto walk_parts(const Division& d, int tiles, int cluster) {
  if constexpr (Divided) {
    return PartWalk(d, cluster);
  } else {
    return WholeTileWalk(tiles, d.slices, cluster, d.clusters);
  }
}

// The producer's thread 0 over the parts `walk` hands out: their slices in order, the ring
// running on across parts, as load_tiles across whole tiles (persistent.cuh).
template <class Ops, class Cfg, class Walk>
__device__ inline void load_parts(const persistent::SharedLayout<Cfg>& layout,
                                  const CUtensorMap* a_map, const CUtensorMap* b_map,
                                  const persistent::TileOrder<Cfg>& order, Walk walk,
                                  std::uint32_t rank) {
  int it = 0;
  Part part{};
  while (walk.next(part)) {
    const auto [row0, col0] = order.origin(part.tile, rank);
    for (int s = part.k_begin; s < part.k_end; ++s, ++it) {
      persistent::load_slice<Ops>(layout, a_map, b_map, it, s, row0, col0, rank);
    }
  }
}

// Sets the flag to this launch's number (README.md, B), publishing this thread's earlier writes
// (after a barrier, its block's) to any thread on the GPU that reads it with flag_wait.
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

// Where a launch's parts meet: the workspace (tile_parts.hpp) and this launch's number.
struct PartialTiles {
  float4* partials;
  int* flags;
  unsigned launch;
};

// The workspace (128 x 256 sums a block) as Cfg's next launch meets in it, under a new number.
template <class Cfg>
PartialTiles partial_tiles_for_launch(const StreamKWorkspace& workspace) {
  static_assert(Cfg::kBlockM * Cfg::kBlockN <= 128 * 256 && Cfg::kConsumers <= 2,
                "a partial tile the workspace holds");
  return {reinterpret_cast<float4*>(workspace.partials()), workspace.flags(),
          next_launch_number()};
}

// The end of a part for one consumer of block `rank`: it adds the saved sums of the parts it
// meets (README.md, B), split-K's range those its tree gives (for_each_tree_read), a Stream-K
// tile's finisher the earlier runs'; then a part that does not finish its tile saves its sums
// and sets its flag (false), the finisher holds the tile's sums (true). Waits: lower clusters.
template <class Cfg, int N>
__device__ inline bool meet_parts(const PartialTiles& work, const Division& d, const Part& part,
                                  int cluster, std::uint32_t rank, int consumer,
                                  float (&sums)[N / 2], int thread) {
  const int barrier_id = 1 + consumer;
  // This consumer's slot of the workspace and its flag, for cluster g's partial sums.
  auto slot_of = [&](int g) {
    return (g * Cfg::kClusterM + static_cast<int>(rank)) * Cfg::kConsumers + consumer;
  };
  auto add = [&](int g) {
    const int theirs = slot_of(g);
    if (thread == 0) flag_wait(&work.flags[theirs], work.launch);
    sync_threads(barrier_id, 128);
    add_partial<N>(work.partials + static_cast<long long>(theirs) * N / 8 * 128, sums, thread);
  };
  const bool finishes = part.k_end == d.slices;  // the part with the last slice stores the tile
  if (d.split > 0 && part.tile >= d.whole_tiles) {
    const int i = cluster % d.split + 1;  // range r of this tile is cluster cluster - i + r
    for_each_tree_read(i, d.split, [&](int range) { add(cluster - i + range); });
  } else if (finishes && part.k_begin > 0) {
    // Stream-K: the earlier runs that cover the tile's first slices, first to last.
    int first = cluster - 1;
    while (stream_start(d, first) > static_cast<long long>(part.tile) * d.slices) --first;
    for (int g = first; g < cluster; ++g) add(g);
  }
  if (finishes) return true;
  // Save: every thread's sums, then (after all 128 have written) the flag.
  const int mine = slot_of(cluster);
  save_partial<N>(work.partials + static_cast<long long>(mine) * N / 8 * 128, sums, thread);
  __threadfence();
  sync_threads(barrier_id, 128);
  if (thread == 0) flag_set(&work.flags[mine], work.launch);
  return false;
}

}  // namespace ladder::hopper
