#include "21_gpu_stream_k/model.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "21_gpu_stream_k/kernel.hpp"
#include "21_gpu_stream_k/model_constants.hpp"

namespace ladder {
namespace {

using namespace stream_k_model;


long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

const TilingCost& tiling_named(const std::string& name) {
  for (const TilingCost& t : kTilings) {
    if (name == t.name) return t;
  }
  throw std::invalid_argument("stage 21's model has no tiling " + name);
}

// What the slowest cluster does, as divide() hands out the work.
struct Work {
  long long slices = 0;    // 64-deep slices it multiplies
  long long tiles = 0;     // tiles it starts (each pays phi)
  long long partials = 0;  // partial tiles its finishing parts read back
  bool divided = false;    // split-K or Stream-K cut some tile
};

Work slowest_cluster(const TilingCost& t, const std::string& division, long long m, long long n,
                     long long k, long long resident) {
  const long long tiles = cdiv(cdiv(m, t.block_m), t.cluster) * cdiv(n, t.block_n);
  const long long slices = cdiv(k, kModelSliceK);
  const long long rest = tiles % resident;
  if (division == "split") {
    const long long ways = split_ways(tiles, resident, slices);
    if (ways > 1) {
      return {tiles / resident * slices + cdiv(slices, ways), tiles / resident + 1, ways - 1, true};
    }
  }
  if (division == "stream" && rest != 0) {
    // All but the last two waves go whole; the rest's slices are shared evenly.
    const long long whole = std::max(0LL, tiles / resident - 1) * resident;
    const long long shared = (tiles - whole) * slices;
    if (shared >= resident) {
      const long long share = cdiv(shared, resident);
      return {whole / resident * slices + share, whole / resident + cdiv(share, slices) + 1, 1,
              true};
    }
  }
  const long long rounds = cdiv(tiles, resident);
  return {rounds * slices, rounds, 0, false};
}

}  // namespace

int split_ways(long long tiles, long long resident, long long slices) {
  const long long rest = tiles % resident;
  return rest == 0 ? 1 : static_cast<int>(std::min({resident / rest, static_cast<long long>(kMaxSplit), slices}));
}

double stream_k_predicted_us(const std::string& tiling, const std::string& division, int m,
                             int n, int k, const StreamKGpu& gpu) {
  if (gpu.sms < 1 || gpu.pairs < 1 || !(gpu.clock_mhz > 0) || !(gpu.bytes_per_us > 0)) {
    throw std::invalid_argument("stage 21's model: a GPU counted with " +
                                std::to_string(gpu.sms) + " SMs, " + std::to_string(gpu.pairs) +
                                " pairs, " + std::to_string(gpu.clock_mhz) + " MHz and " +
                                std::to_string(gpu.bytes_per_us) + " bytes a microsecond");
  }
  const TilingCost& t = tiling_named(tiling);
  const long long resident = t.cluster == 1 ? gpu.sms : gpu.pairs;
  const Work w = slowest_cluster(t, division, m, n, k, resident);
  // The compute side: slices and tiles at the tiling's rates, partial tiles read back, the
  // division's fixed extra, all at the fitted clock's speed; then the launch.
  const double scheme = !w.divided ? 0 : division == "split" ? kSigmaSplit : kSigmaStream;
  const double at_fit_clock = t.tau * w.slices + t.phi * w.tiles +
                              kRho * w.partials * t.block_m * t.block_n / (128.0 * 256.0) + scheme;
  const double compute = at_fit_clock * kFitClockMhz / gpu.clock_mhz + kLambda;
  // The memory side: the least a product moves, at what the busy SMs can draw (a pair over one
  // tile row does one block's work; whole tiles busy no more SMs than there are tiles).
  const long long rows = cdiv(m, t.block_m);
  long long active = resident * (t.cluster == 2 && rows == 1 ? 1 : t.cluster);
  if (division == "dp") active = std::min(rows * cdiv(n, t.block_n), active);
  const double moved = 2.0 * (static_cast<double>(m) * k + static_cast<double>(k) * n) +
                       4.0 * static_cast<double>(m) * n;
  const double memory = moved / std::min(gpu.bytes_per_us, active * kBetaBytesPerUs) + kLambda;
  return std::max(compute, memory);
}

std::string stream_k_choice(int m, int n, int k, const StreamKGpu& gpu,
                            const std::string& default_tiling) {
  // Stage 19's default first, then the variants in kernel.cu's order: on a tie the first runs.
  std::string choice;
  double best = stream_k_predicted_us(default_tiling, "dp", m, n, k, gpu);
  const std::vector<std::string> variants = stream_k_configs();
  for (auto name = variants.begin() + 1; name != variants.end(); ++name) {  // after by_shape
    const std::size_t cut = name->rfind('_');  // "128x256_c2" "_" "split"
    const double us = stream_k_predicted_us(name->substr(0, cut), name->substr(cut + 1), m, n, k,
                                            gpu);
    if (us < best) {
      best = us;
      choice = *name;
    }
  }
  return choice;
}

}  // namespace ladder
