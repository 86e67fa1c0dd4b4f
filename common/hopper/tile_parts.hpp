// Tiles cut into parts along K, host side: how a launch divides its tiles among its clusters
// (21_gpu_stream_k/README.md, A) and the workspace where a tile's parts meet; the kernels' side
// is tile_parts.cuh. BF16 and FP8 divide alike, each capping split-K by its model's max_split.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/hopper/tile_model.hpp"
#include "common/matrix.hpp"

namespace ladder {

// How a launch divides its tiles (in stage 19's order) among its clusters.
struct Division {
  int tiles;        // cluster tiles
  int slices;       // slices of K in each
  int clusters;     // clusters launched
  int whole_tiles;  // tiles [0, whole_tiles) go whole, round-robin over the clusters (stage 19)
  // Split-K (split > 0): each later tile cut into `split` ranges (from 1); cluster u takes range
  // u % split + 1 of tile whole_tiles + u / split. Stream-K (split == 0): the later iterations
  // (tile * slices + slice) cut into one run a cluster, stream_share long (stream_extra one more).
  int split;
  long long stream_begin;
  long long stream_share;
  int stream_extra;
};

// `tiles` tiles of `slices` slices divided by `scheme` among `resident` clusters (split-K in at
// most `max_split` ranges), as the model counts; where neither divides, whole in even rounds.
Division divide(long long tiles, int slices, int resident, Scheme scheme, int max_split);

// Split-K's ranges meet in a tree four wide (21_gpu_stream_k/README.md, B; up to four, a chain):
// range i (from 1) sums ranges (i - tree_unit(i), i], tree_unit(i) the largest power of 4 in i.
constexpr int kTreeWidth = 4;
LADDER_HOST_DEVICE inline int tree_unit(int i) {
  int unit = 1;
  while (i % (unit * kTreeWidth) == 0) unit *= kTreeWidth;
  return unit;
}
// The ranges whose saved sums range i of `ways` adds, in order, each to `add`: i - j u (j < 4,
// u = 1, 4, ... below tree_unit(i)); the last range then those before its subtree.
template <class Add>
LADDER_HOST_DEVICE inline void for_each_tree_read(int i, int ways, Add add) {
  const int unit = tree_unit(i);
  for (int u = 1; u < unit; u *= kTreeWidth) {
    for (int j = 1; j < kTreeWidth; ++j) add(i - j * u);
  }
  for (int below = i - unit; i == ways && below > 0; below -= tree_unit(below)) add(below);
}

// A number no other launch in this process has used (until 2^32 launches wrap it), never 0, the
// value a workspace's flags start with.
unsigned next_launch_number();

// Where the parts of split tiles meet: a 128 x 256 FP32 partial tile and two flags per SM of
// the current device, allocated once and reused by every launch (each sets the flags to its own
// number). Launches that use it must not overlap: queue them on one stream. Not copyable.
class StreamKWorkspace {
 public:
  StreamKWorkspace();
  ~StreamKWorkspace();
  StreamKWorkspace(const StreamKWorkspace&) = delete;
  StreamKWorkspace& operator=(const StreamKWorkspace&) = delete;

  // What the constructor allocates (for the memory check before it).
  static std::uint64_t bytes_needed();

  float* partials() const { return partials_; }
  int* flags() const { return flags_; }
  std::size_t partial_bytes() const;       // the bytes at partials()
  std::size_t flag_count() const;          // the ints at flags()
  int device() const { return device_; }  // the device it was allocated on

 private:
  float* partials_ = nullptr;
  int* flags_ = nullptr;
  int device_ = 0;
  int blocks_ = 0;
};

// Throws std::invalid_argument, naming `stage`, unless `workspace` is the current device's.
void check_workspace_device(const StreamKWorkspace& workspace, const char* stage);

}  // namespace ladder
