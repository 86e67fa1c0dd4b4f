// Stage 19's default, by_size: the tiling of the persistent kernel picked per problem, from
// how many clusters the GPU holds at once and how many tiles C has (TF32's default too).
#pragma once

#include "common/hopper/persistent.cuh"
#include "common/hopper/persistent_kernel.cuh"

namespace ladder::persistent {
// Internal to each file that includes it, as persistent_kernel.cuh's kernel is.
namespace {

// Waves x tile width, a proxy for a tiling's run time: a partly filled last wave counts as a
// full one, and a wave of wider tiles takes proportionally longer.
template <class Ops, class Cfg>
long long wave_width(const Matrix& c) {
  const long long resident = resident_persistent_clusters<Ops, Cfg>();
  return (cluster_tiles<Cfg>(c) + resident - 1) / resident * Cfg::kBlockN;
}

// by_size, the default, picks its tiling per problem, as libraries do, by two rules measured on the
// H100 (results/19_gpu_clusters/search.md). Clusters pay only past one wave: where every tile of
// 128 x 256 has its own SM at once (2048^3, the articles' problem) the blocks gain nothing from
// sharing B and lose to waiting for each other. And 192-wide tiles only where they shorten waves x
// width by at least 10%: they fill a wave better, but ran 1.6% slower than 256-wide ones at 8192^3,
// so 4096^3 and 8192^3 keep 256. The transposing TF32 variants use the same rules: their slots,
// tiles and waves are the same (the swapped default takes only the first, tf32_swapped.cu).
template <class Ops, class W, class N>
bool narrow_is_shorter(const Matrix& c) {
  return 10 * wave_width<Ops, N>(c) < 9 * wave_width<Ops, W>(c);
}

// The default's choice for c: clusters or not, 192 or 256 wide.
struct PersistentTiling {
  bool clusters;
  bool narrow;
};
template <class Ops>
PersistentTiling best_tiling(const Matrix& c) {
  const bool one_wave =
      cluster_tiles<WideAlone>(c) <= resident_persistent_clusters<Ops, WideAlone>();
  if (one_wave) return {false, narrow_is_shorter<Ops, WideAlone, NarrowAlone>(c)};
  return {true, narrow_is_shorter<Ops, Wide, Narrow>(c)};
}

template <class Ops>
void launch_best(typename Ops::View a, typename Ops::View b, Matrix c) {
  const PersistentTiling tiling = best_tiling<Ops>(c);
  if (tiling.clusters) {
    tiling.narrow ? launch_persistent<Ops, Narrow>(a, b, c) : launch_persistent<Ops, Wide>(a, b, c);
  } else {
    tiling.narrow ? launch_persistent<Ops, NarrowAlone>(a, b, c)
                  : launch_persistent<Ops, WideAlone>(a, b, c);
  }
}

}  // namespace
}  // namespace ladder::persistent
