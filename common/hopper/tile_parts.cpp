#include "common/hopper/tile_parts.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "common/hopper/cluster_launch.hpp"

namespace ladder {
namespace {

// Per block (one per SM): a 128 x 256 FP32 partial tile, as its two consumers' 64 x 256 slots,
// and a flag for each.
constexpr std::size_t kPartialBytesPerBlock = 128 * 256 * sizeof(float);
constexpr std::size_t kFlagBytesPerBlock = 2 * sizeof(int);

int current_device() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

}  // namespace

Division divide(long long tiles, int slices, int resident, Scheme scheme, int max_split) {
  Division d{};
  d.tiles = static_cast<int>(tiles);
  d.slices = slices;
  d.clusters = static_cast<int>(hopper::even_rounds_clusters(d.tiles, resident));
  d.whole_tiles = d.tiles;
  d.split = 1;
  d.stream_begin = static_cast<long long>(d.tiles) * d.slices;
  const int rest = d.tiles % resident;
  if (scheme == Scheme::split_k) {
    const int split = split_ways(d.tiles, resident, d.slices, max_split);
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

unsigned next_launch_number() {
  static std::atomic<unsigned> last{0};
  unsigned number = ++last;
  while (number == 0) number = ++last;
  return number;
}

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

void check_workspace_device(const StreamKWorkspace& workspace, const char* stage) {
  if (workspace.device() != current_device()) {
    throw std::invalid_argument(std::string(stage) + ": the workspace was made on device " +
                                std::to_string(workspace.device()) + ", the product runs on " +
                                std::to_string(current_device()));
  }
}

}  // namespace ladder
