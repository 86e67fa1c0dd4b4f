#include "common/hopper/tile_model.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/hopper/tile_parts.hpp"

namespace ladder {
namespace {

constexpr double kCopyShareOfPeak = 0.868;
// The kernels take tiles down groups of 8 cluster rows (persistent.cuh's kGroupM; a script test
// holds the two to each other), so the model can tell which Stream-K tiles share a panel.
constexpr int kGroupRows = 8;

long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

const TilingCost& tiling_of(const ModelConstants& model, const Candidate& candidate) {
  for (int i = 0; i < model.tiling_count; ++i) {
    const TilingCost& t = model.tilings[i];
    if (t.block_n == candidate.block_n && t.cluster == candidate.cluster) return t;
  }
  throw std::invalid_argument("the tile model has no tiling 128x" +
                              std::to_string(candidate.block_n) + " in clusters of " +
                              std::to_string(candidate.cluster));
}

// The partial tiles read, one after another, before a tile split `ways` ways holds its sum:
// the tree's longest chain (for_each_tree_read), each range's sums saved one transfer after its
// last read; less the leaves' first save, which every range makes at once.
long long tree_reads(int ways) {
  std::vector<long long> saved(ways + 1);
  long long t = 0;
  for (int i = 1; i <= ways; ++i) {
    t = 0;
    for_each_tree_read(i, ways, [&](int range) { t = std::max(t, saved[range]) + 1; });
    saved[i] = t + 1;
  }
  return t - 1;
}

// What the slowest cluster does, as stage 21's divide() hands out the work.
struct Work {
  long long slices = 0;    // slices it multiplies
  long long tiles = 0;     // tiles it starts (each pays phi)
  long long partials = 0;  // partial tiles its finishing parts read back
  bool divided = false;    // split-K or Stream-K cut some tile
};

Work slowest_cluster(const TilingCost& t, Scheme scheme, long long m, long long n, long long k,
                     long long slice_k, long long resident, int max_split) {
  const long long tiles = cdiv(cdiv(m, 128), t.cluster) * cdiv(n, t.block_n);
  const long long slices = cdiv(k, slice_k);
  const long long rest = tiles % resident;
  if (scheme == Scheme::split_k) {
    const long long ways = split_ways(tiles, resident, slices, max_split);
    if (ways > 1) {
      return {tiles / resident * slices + cdiv(slices, ways), tiles / resident + 1,
              tree_reads(static_cast<int>(ways)), true};
    }
  }
  if (scheme == Scheme::stream_k && rest != 0) {
    // All but the last two waves go whole; the rest's slices are shared evenly, in runs of
    // shared / resident slices or one more. A tile's finishing part holds a slice at least and
    // reads back the parts before it: at most ceil((slices - 1) / shortest run) of them.
    const long long whole = std::max(0LL, tiles / resident - 1) * resident;
    const long long shared = (tiles - whole) * slices;
    if (shared >= resident) {
      const long long share = cdiv(shared, resident);
      return {whole / resident * slices + share, whole / resident + cdiv(share, slices) + 1,
              cdiv(slices - 1, shared / resident), true};
    }
  }
  const long long rounds = cdiv(tiles, resident);
  return {rounds * slices, rounds, 0, false};
}

// The operand bytes a Stream-K launch that divides reads from DRAM (stream_k_model.py's
// stream_reads). The whole tiles before its runs read what data-parallel tiles do. In the runs,
// cluster g walks iterations [g share, (g + 1) share) from the end back, so iteration tile x L
// + s comes at share - 1 - ((tile x L + s) mod share): tiles that share a panel of A (a tile
// row) or of B (a tile column) read its slice s at times (tile x L) mod share apart on a circle
// of `share` slice-times. A read finds the slice in L2 if the last one came at most H
// slice-times before, H the slice-times in which every cluster together reads the L2's size.
// Over s, each gap G between a panel's sorted times is cut by the circle's end on G / share of
// the slices: 1 + the sum over gaps G > H of (1 - G / share) reads of the panel from DRAM.
double stream_reads(const ModelConstants& model, const TilingCost& t, long long m, long long n,
                    long long k, long long resident, double l2_bytes) {
  const long long rows = cdiv(cdiv(m, 128), t.cluster);
  const long long cols = cdiv(n, t.block_n);
  const long long tiles = rows * cols;
  const long long slices = cdiv(k, model.slice_k);
  const long long before = std::max(0LL, tiles / resident - 1) * resident;
  const long long share = (tiles - before) * slices / resident;
  const double window = l2_bytes / (static_cast<double>(resident) * (128 * t.cluster + t.block_n) *
                                    model.slice_k * model.operand_bytes);
  std::map<long long, std::vector<long long>> times_a, times_b;  // panel -> its tiles' times
  for (long long tile = before; tile < tiles; ++tile) {
    const long long group = tile / (kGroupRows * cols) * kGroupRows;
    const long long in_group = tile % (kGroupRows * cols);
    const long long group_rows = std::min<long long>(rows - group, kGroupRows);
    const long long at = (tile - before) * slices % share;
    times_a[group + in_group % group_rows].push_back(at);
    times_b[in_group / group_rows].push_back(at);
  }
  auto reads = [&](std::vector<long long>& times) {
    std::sort(times.begin(), times.end());
    double count = 1;
    for (std::size_t i = 0; i < times.size(); ++i) {
      const long long gap = i + 1 < times.size() ? times[i + 1] - times[i]
                                                 : times.front() + share - times.back();
      if (gap > window) count += 1 - static_cast<double>(gap) / share;
    }
    return count;
  };
  const double panel = static_cast<double>(k) * model.operand_bytes;
  double bytes = model.operand_bytes * static_cast<double>(m * k + k * n) * before / tiles;
  for (auto& [row, times] : times_a) bytes += 128.0 * t.cluster * panel * reads(times);
  for (auto& [col, times] : times_b) bytes += t.block_n * panel * reads(times);
  return bytes;
}

}  // namespace

ModelGpu current_gpu(int pairs) {
  static std::mutex mutex;
  static std::map<int, ModelGpu> asked;  // device -> its counts, pairs left out
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  auto known = asked.find(device);
  if (known == asked.end()) {
    const double memory_khz = device_attribute(cudaDevAttrMemoryClockRate);
    const double bus_bytes = device_attribute(cudaDevAttrGlobalMemoryBusWidth) / 8.0;
    const ModelGpu gpu{device_attribute(cudaDevAttrMultiProcessorCount), 0,
                       device_attribute(cudaDevAttrClockRate) / 1e3,
                       kCopyShareOfPeak * 2 * memory_khz * 1e3 * bus_bytes / 1e6,
                       static_cast<double>(device_attribute(cudaDevAttrL2CacheSize))};
    known = asked.emplace(device, gpu).first;
  }
  ModelGpu gpu = known->second;
  gpu.pairs = pairs;
  return gpu;
}

int split_ways(long long tiles, long long resident, long long slices, int most) {
  const long long rest = tiles % resident;
  return rest == 0 ? 1 : static_cast<int>(std::min({resident / rest, 1LL * most, slices}));
}

double predicted_us(const ModelConstants& model, const Candidate& candidate, int m, int n, int k,
                    const ModelGpu& gpu) {
  if (gpu.sms < 1 || gpu.pairs < 1 || !(gpu.clock_mhz > 0) || !(gpu.bytes_per_us > 0) ||
      !(gpu.l2_bytes > 0)) {
    throw std::invalid_argument("the tile model: a GPU counted with " + std::to_string(gpu.sms) +
                                " SMs, " + std::to_string(gpu.pairs) + " pairs, " +
                                std::to_string(gpu.clock_mhz) + " MHz, " +
                                std::to_string(gpu.bytes_per_us) + " bytes a microsecond and " +
                                std::to_string(gpu.l2_bytes) + " bytes of L2");
  }
  const TilingCost& t = tiling_of(model, candidate);
  const long long resident = t.cluster == 1 ? gpu.sms : gpu.pairs;
  const Work w =
      slowest_cluster(t, candidate.scheme, m, n, k, model.slice_k, resident, model.max_split);
  // The SMs at work: a pair over one tile row does one block's work; whole tiles (a launch
  // that divides nothing) busy no more SMs than there are tiles.
  const long long rows = cdiv(m, 128);
  long long active = resident * (t.cluster == 2 && rows == 1 ? 1 : t.cluster);
  if (!w.divided) active = std::min(rows * cdiv(n, t.block_n), active);
  // The compute side: slices and tiles at the tiling's rates (a divided kernel's slices slower
  // by tau_divided, and every slice by its L2 reads as more SMs read), partial tiles read back,
  // the division's fixed extra, all at the fitted clock's speed; then the launch.
  const double scheme = !w.divided                             ? 0
                        : candidate.scheme == Scheme::split_k ? model.sigma_split
                                                              : model.sigma_stream;
  const double read_kb = (128.0 + static_cast<double>(t.block_n) / t.cluster) * 128 / 1024;
  const double tau = t.tau + (w.divided ? model.tau_divided : 0) +
                     model.gamma * read_kb * static_cast<double>(active) / gpu.sms;
  const double at_fit_clock = tau * w.slices + t.phi * w.tiles +
                              model.rho * w.partials * 128 * t.block_n / (128.0 * 256.0) + scheme;
  const double compute = at_fit_clock * model.fit_clock_mhz / gpu.clock_mhz + model.lambda;
  // The memory side: the least a product moves (a Stream-K launch's operands as its runs read
  // them), at what the busy SMs can draw.
  const double reads =
      w.divided && candidate.scheme == Scheme::stream_k
          ? stream_reads(model, t, m, n, k, resident, gpu.l2_bytes)
          : model.operand_bytes * (static_cast<double>(m) * k + static_cast<double>(k) * n);
  const double moved = reads + 4.0 * static_cast<double>(m) * n;
  const double memory =
      moved / std::min(gpu.bytes_per_us, active * model.beta_bytes_per_us) + model.lambda;
  return std::max(compute, memory);
}

int fastest(const ModelConstants& model, int m, int n, int k, const ModelGpu& gpu,
            const std::vector<Candidate>& candidates) {
  int choice = 0;
  double best = 0;
  for (int i = 0; i < static_cast<int>(candidates.size()); ++i) {
    const double us = predicted_us(model, candidates[i], m, n, k, gpu);
    if (i == 0 || us < best) {
      best = us;
      choice = i;
    }
  }
  return choice;
}

int kept_fastest(const ModelConstants& model, int m, int n, int k, const ModelGpu& gpu,
                 const std::vector<Candidate>& candidates) {
  using Key = std::tuple<const ModelConstants*, const std::vector<Candidate>*, int, int, int, int,
                         int, double, double, double>;
  static std::mutex mutex;  // host threads may launch at once
  static std::map<Key, int> kept;
  const Key key{&model, &candidates, m, n, k, gpu.sms, gpu.pairs, gpu.clock_mhz, gpu.bytes_per_us,
                gpu.l2_bytes};
  const std::lock_guard<std::mutex> lock(mutex);
  auto known = kept.find(key);
  if (known == kept.end()) {
    known = kept.emplace(key, fastest(model, m, n, k, gpu, candidates)).first;
  }
  return known->second;
}

}  // namespace ladder
