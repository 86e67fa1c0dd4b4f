// The persistent kernels' launch, host side: one block per SM, in clusters of blocks along x,
// as many clusters as the GPU holds at once, asked of the device.
#pragma once

namespace ladder::hopper {

// What a launch needs to know of a kernel's blocks.
struct ClusterShape {
  int blocks;        // blocks per cluster, stacked along M
  int threads;       // threads per block
  int shared_bytes;  // dynamic shared memory per block
};
template <class Cfg>
constexpr ClusterShape cluster_shape_of() {
  return {Cfg::kClusterM, Cfg::kThreads, Cfg::kSharedBytes};
}

// How many clusters of `shape` the GPU holds at once running `kernel` (66 pairs of 132 SMs on
// the H100), asked of the device once per kernel and device. A tiling's kernels with or without
// the TMA store or the fixup take the same threads and shared memory: a launcher may ask for any.
int resident_clusters(const void* kernel, ClusterShape shape);
template <class Cfg, class... Params>
int resident_clusters_of(void (*kernel)(Params...)) {
  return resident_clusters(reinterpret_cast<const void*>(kernel), cluster_shape_of<Cfg>());
}

// The fewest clusters that take `tiles` in as many rounds as `resident` clusters would: their
// shares then differ by at most one tile (the even rounds of README 18).
long long even_rounds_clusters(long long tiles, long long resident);

// Queues `kernel` on `clusters` clusters of `shape`, with `args` (a pointer per parameter), after
// raising its dynamic shared-memory limit to the shape's; throws CudaError if either call fails.
void launch_clusters(const void* kernel, ClusterShape shape, long long clusters, void** args);

// kernel(args...) on `clusters` clusters of Cfg's blocks, each argument converted to its
// parameter's type, so that the pointers point at what the kernel expects.
template <class Cfg, class... Params, class... Args>
void launch_in_clusters(void (*kernel)(Params...), long long clusters, const Args&... args) {
  [&](Params... params) {
    void* pointers[] = {&params...};
    launch_clusters(reinterpret_cast<const void*>(kernel), cluster_shape_of<Cfg>(), clusters,
                    pointers);
  }(args...);
}

}  // namespace ladder::hopper
