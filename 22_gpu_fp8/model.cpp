#include "22_gpu_fp8/model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "22_gpu_fp8/model_constants.hpp"

namespace ladder {
namespace {

using namespace fp8_model;

long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

const TilingCost& cost_of(const Fp8Tiling& tiling) {
  for (const TilingCost& t : kTilings) {
    if (t.block_n == tiling.block_n && t.cluster == tiling.cluster) return t;
  }
  throw std::invalid_argument("stage 22's model has no tiling 128x" +
                              std::to_string(tiling.block_n) + " in clusters of " +
                              std::to_string(tiling.cluster));
}

}  // namespace

double fp8_predicted_us(const Fp8Tiling& tiling, int m, int n, int k, const Fp8Gpu& gpu) {
  if (gpu.sms < 1 || gpu.pairs < 1 || !(gpu.clock_mhz > 0) || !(gpu.bytes_per_us > 0)) {
    throw std::invalid_argument("stage 22's model: a GPU counted with " +
                                std::to_string(gpu.sms) + " SMs, " + std::to_string(gpu.pairs) +
                                " pairs, " + std::to_string(gpu.clock_mhz) + " MHz and " +
                                std::to_string(gpu.bytes_per_us) + " bytes a microsecond");
  }
  const TilingCost& t = cost_of(tiling);
  const long long resident = t.cluster == 1 ? gpu.sms : gpu.pairs;
  const long long rows = cdiv(m, 128);
  const long long tiles = cdiv(rows, t.cluster) * cdiv(n, t.block_n);
  const long long rounds = cdiv(tiles, resident);
  const double at_fit_clock = (t.tau * cdiv(k, 128) + t.phi) * rounds;
  const double compute = at_fit_clock * kFitClockMhz / gpu.clock_mhz + kLambda;
  // A pair over one tile row does one block's work; whole tiles busy no more SMs than there
  // are tiles.
  const long long active =
      std::min(rows * cdiv(n, t.block_n), resident * (t.cluster == 2 && rows == 1 ? 1 : t.cluster));
  const double moved = static_cast<double>(m) * k + static_cast<double>(k) * n +
                       4.0 * static_cast<double>(m) * n;
  const double memory = moved / std::min(gpu.bytes_per_us, active * kBetaBytesPerUs) + kLambda;
  return std::max(compute, memory);
}

int fp8_choice(int m, int n, int k, const Fp8Gpu& gpu, const std::vector<Fp8Tiling>& tilings) {
  int choice = 0;
  double best = 0;
  for (int i = 0; i < static_cast<int>(tilings.size()); ++i) {
    const double us = fp8_predicted_us(tilings[i], m, n, k, gpu);
    if (i == 0 || us < best) {
      best = us;
      choice = i;
    }
  }
  return choice;
}

}  // namespace ladder
