#include "common/hopper/tile_model.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>
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
constexpr std::size_t kKeptShapes = 4096;  // kept_fastest's most; past it, it starts again

long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

// The share of sectors beyond the aligned count that rows `row_bytes` apart read: a slice's 128
// bytes of a row (read_kb's) touch 5 sectors of 32 bytes, not 4, where the row starts inside
// one, as all rows but a share gcd(row_bytes mod 32, 32) / 32 do (the first on a sector).
double sectors_beyond(long long row_bytes) {
  return (1 - std::gcd(row_bytes % 32, 32LL) / 32.0) / 4;
}

const TilingCost& tiling_of(const ModelConstants& model, const Candidate& candidate) {
  for (int i = 0; i < model.tiling_count; ++i) {
    const TilingCost& t = model.tilings[i];
    if (t.block_m == candidate.block_m && t.block_n == candidate.block_n &&
        t.cluster == candidate.cluster) {
      return t;
    }
  }
  throw std::invalid_argument("the tile model has no tiling " + std::to_string(candidate.block_m) +
                              "x" + std::to_string(candidate.block_n) + " in clusters of " +
                              std::to_string(candidate.cluster));
}

// The partial-tile transfers (saves and reads) one after another before a tile split `ways`
// ways holds its sum: the tree's longest chain (for_each_tree_read), each range's sums saved one
// transfer after its last read; less the leaves' first save, which every range makes at once.
long long tree_transfers(int ways) {
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
  long long partials = 0;  // partial tiles saved or read on its chain, one after another
  bool divided = false;    // split-K or Stream-K cut some tile
};

Work slowest_cluster(const TilingCost& t, Scheme scheme, long long m, long long n, long long k,
                     long long slice_k, long long resident, int max_split) {
  const long long tiles = cdiv(cdiv(m, t.block_m), t.cluster) * cdiv(n, t.block_n);
  const long long slices = cdiv(k, slice_k);
  const long long rest = tiles % resident;
  if (scheme == Scheme::split_k) {
    const long long ways = split_ways(tiles, resident, slices, max_split);
    if (ways > 1) {
      return {tiles / resident * slices + cdiv(slices, ways), tiles / resident + 1,
              tree_transfers(static_cast<int>(ways)), true};
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

// The operand bytes a Stream-K launch that divides reads from DRAM, as its clusters walk their
// runs (stream_k_model.py's stream_reads, which a script test holds to a slice-by-slice walk).
// The whole tiles before the runs read what data-parallel tiles do. Run g is iterations
// [g share + min(g, extra), ...), as divide() cuts them; its cluster takes the run's parts from
// the end back (PartWalk), each part's slices in order, a slice-time each. Tiles that share a
// panel of A (a tile row) or of B (a tile column) so read its slice s at different times: a
// read finds it in L2 if the panel's last read of it came at most H slice-times before, H = L2
// / (every cluster's bytes a slice, as if none were in L2), else it comes from DRAM.
double stream_reads(const ModelConstants& model, const TilingCost& t, long long m, long long n,
                    long long k, long long resident, double l2_bytes) {
  const long long rows = cdiv(cdiv(m, t.block_m), t.cluster);
  const long long cols = cdiv(n, t.block_n);
  const long long tiles = rows * cols;
  const long long slices = cdiv(k, model.slice_k);
  const Division d = divide(tiles, static_cast<int>(slices), static_cast<int>(resident),
                            Scheme::stream_k, model.max_split);
  if (d.split != 0) throw std::invalid_argument("stream_reads: a launch that divides nothing");
  const long long before = d.whole_tiles, share = d.stream_share, extra = d.stream_extra;
  const double cluster_slice_bytes = static_cast<double>(t.block_m * t.cluster + t.block_n) *
                                     model.slice_k * model.operand_bytes;
  const double hold = l2_bytes / (resident * cluster_slice_bytes);
  struct Piece {
    long long tile;   // its tile among the shared ones
    long long first;  // slices [first, end) of the tile, slice s read at s + offset
    long long end;
    long long offset;
  };
  std::vector<Piece> pieces;
  for (long long g = 0; g < resident; ++g) {
    const long long begin = g * share + std::min(g, extra);
    long long i = (g + 1) * share + std::min(g + 1, extra), time = 0;
    while (i > begin) {
      const long long u = (i - 1) / slices;
      const long long first = std::max(begin, u * slices);
      pieces.push_back({u, first - u * slices, i - u * slices, time - (first - u * slices)});
      time += i - first;
      i = first;
    }
  }
  std::vector<long long> row_of(tiles - before), col_of(tiles - before);
  for (long long u = 0; u < tiles - before; ++u) {
    const long long tile = before + u;
    const long long group = tile / (kGroupRows * cols) * kGroupRows;
    const long long in_group = tile % (kGroupRows * cols);
    const long long group_rows = std::min<long long>(rows - group, kGroupRows);
    row_of[u] = group + in_group % group_rows;
    col_of[u] = in_group / group_rows;
  }
  // Each panel's DRAM reads, summed over its slices, times its rows or columns in the matrix.
  // Between two parts' first slices every tile of a panel reads slice s at s + a fixed offset,
  // so each slice there is read 1 + (the gaps over H between the tiles' sorted offsets) times;
  // a part's first slice moves one offset.
  std::vector<long long> offsets, held(tiles - before);
  auto panels_read = [&](const std::vector<long long>& panel_of, long long panel_size,
                         long long matrix_size) {
    std::sort(pieces.begin(), pieces.end(), [&](const Piece& a, const Piece& b) {
      return std::tie(panel_of[a.tile], a.first) < std::tie(panel_of[b.tile], b.first);
    });
    std::fill(held.begin(), held.end(), -1);  // each tile's last piece, in one panel only
    long long sum = 0, total = 0, over = 0;  // over: gaps between neighbours longer than H
    auto gap_over = [&](long long a, long long b) { return b - a > hold ? 1LL : 0LL; };
    auto move = [&](long long x, int sign) {  // sign 1 adds offset x, -1 takes one x away
      const auto at = std::lower_bound(offsets.begin(), offsets.end(), x);
      const bool lower = at != offsets.begin();
      const auto above = sign < 0 ? at + 1 : at;
      const bool upper = above != offsets.end();
      long long split = 0;
      if (lower) split += gap_over(*(at - 1), x);
      if (upper) split += gap_over(x, *above);
      if (lower && upper) split -= gap_over(*(at - 1), *above);
      over += sign * split;
      if (sign > 0) {
        offsets.insert(at, x);
      } else {
        offsets.erase(at);
      }
    };
    for (std::size_t e = 0; e < pieces.size(); ++e) {
      const Piece& p = pieces[e];
      const long long panel = panel_of[p.tile];
      if (e == 0 || panel != panel_of[pieces[e - 1].tile]) {  // a new panel
        offsets.clear();
        over = total = 0;
      }
      if (held[p.tile] >= 0) move(pieces[held[p.tile]].offset, -1);
      move(p.offset, 1);
      held[p.tile] = static_cast<long long>(e);
      const bool last = e + 1 == pieces.size() || panel_of[pieces[e + 1].tile] != panel;
      total += (1 + over) * ((last ? slices : pieces[e + 1].first) - p.first);
      if (last) sum += std::min(panel_size, matrix_size - panel * panel_size) * total;
    }
    return sum;
  };
  const long long read_rows = panels_read(row_of, 1LL * t.block_m * t.cluster, m);
  const long long read_cols = panels_read(col_of, t.block_n, n);
  const double whole = model.operand_bytes * static_cast<double>(m * k + k * n) * before / tiles;
  return whole + static_cast<double>(k) * model.operand_bytes * (read_rows + read_cols) / slices;
}

void require_counted(const ModelGpu& gpu) {
  if (gpu.sms < 1 || gpu.pairs < 1 || !(gpu.clock_mhz > 0) || !(gpu.bytes_per_us > 0) ||
      !(gpu.l2_bytes > 0)) {
    throw std::invalid_argument("the tile model: a GPU counted with " + std::to_string(gpu.sms) +
                                " SMs, " + std::to_string(gpu.pairs) + " pairs, " +
                                std::to_string(gpu.clock_mhz) + " MHz, " +
                                std::to_string(gpu.bytes_per_us) + " bytes a microsecond and " +
                                std::to_string(gpu.l2_bytes) + " bytes of L2");
  }
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
                    const ModelGpu& gpu, RowBytes row_bytes) {
  require_counted(gpu);
  const TilingCost& t = tiling_of(model, candidate);
  const long long resident = t.cluster == 1 ? gpu.sms : gpu.pairs;
  const Work w =
      slowest_cluster(t, candidate.scheme, m, n, k, model.slice_k, resident, model.max_split);
  // The SMs at work: a pair over one tile row does one block's work; whole tiles (a launch
  // that divides nothing) busy no more SMs than there are tiles.
  const long long rows = cdiv(m, t.block_m);
  long long active = resident * (t.cluster == 2 && rows == 1 ? 1 : t.cluster);
  if (!w.divided) active = std::min(rows * cdiv(n, t.block_n), active);
  // The compute side: slices and tiles at the tiling's rates (a divided kernel's slices slower
  // by tau_divided, and every slice by its L2 reads as more SMs read), partial tiles saved or read,
  // the division's fixed extra, all at the fitted clock's speed.
  const double scheme = !w.divided                             ? 0
                        : candidate.scheme == Scheme::split_k ? model.sigma_split
                                                              : model.sigma_stream;
  const double read_kb = (t.block_m + static_cast<double>(t.block_n) / t.cluster) * 128 / 1024;
  const double beyond_kb =  // as read_kb, only the sectors beyond the aligned count
      (t.block_m * sectors_beyond(row_bytes.a) +
       static_cast<double>(t.block_n) / t.cluster * sectors_beyond(row_bytes.b)) * 128 / 1024;
  const double tau = t.tau + (w.divided ? model.tau_divided : 0) +
                     (model.gamma * read_kb + model.gamma_sectors * beyond_kb) *
                         static_cast<double>(active) / gpu.sms;
  const double partials = model.rho * w.partials * t.block_m * t.block_n / (128.0 * 256.0);
  const double at_fit_clock = tau * w.slices + t.phi * w.tiles + partials + scheme;
  const double compute = at_fit_clock * model.fit_clock_mhz / gpu.clock_mhz;
  // The memory side: the least a product moves (a Stream-K launch's operands as its runs read
  // them), at what the busy SMs can draw.
  const double reads =
      w.divided && candidate.scheme == Scheme::stream_k
          ? stream_reads(model, t, m, n, k, resident, gpu.l2_bytes)
          : model.operand_bytes * (static_cast<double>(m) * k + static_cast<double>(k) * n);
  const double moved = reads + 4.0 * static_cast<double>(m) * n;
  const double memory = moved / std::min(gpu.bytes_per_us, active * model.beta_bytes_per_us);
  // The longer side, the part of the shorter it does not hide, then the launch.
  return std::max(compute, memory) + model.alpha * std::min(compute, memory) + model.lambda;
}

int fastest(const ModelConstants& model, int m, int n, int k, const ModelGpu& gpu,
            const std::vector<Candidate>& candidates, RowBytes row_bytes) {
  std::vector<double> us;
  for (const Candidate& c : candidates) {
    us.push_back(predicted_us(model, c, m, n, k, gpu, row_bytes));
  }
  return static_cast<int>(std::min_element(us.begin(), us.end()) - us.begin());  // the first
}

int kept_fastest(const ModelConstants& model, int m, int n, int k, const ModelGpu& gpu,
                 const std::vector<Candidate>& candidates, RowBytes row_bytes) {
  require_counted(gpu);
  std::vector<std::tuple<int, int, int, Scheme>> priced;
  for (const Candidate& c : candidates) {
    priced.emplace_back(c.block_m, c.block_n, c.cluster, c.scheme);
  }
  const auto key = std::make_tuple(&model, std::move(priced), m, n, k, gpu.sms, gpu.pairs,
                                   gpu.clock_mhz, gpu.bytes_per_us, gpu.l2_bytes, row_bytes.a,
                                   row_bytes.b);
  static std::mutex mutex;  // host threads may launch at once
  static std::map<std::remove_const_t<decltype(key)>, int> kept;
  const std::lock_guard<std::mutex> lock(mutex);
  auto known = kept.find(key);
  if (known == kept.end()) {
    if (kept.size() >= kKeptShapes) kept.clear();
    known = kept.emplace(key, fastest(model, m, n, k, gpu, candidates, row_bytes)).first;
  }
  return known->second;
}

}  // namespace ladder
