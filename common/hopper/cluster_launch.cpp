#include "common/hopper/cluster_launch.hpp"

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <utility>

#include "common/cuda_check.hpp"
#include "common/errors.hpp"

namespace ladder::hopper {
namespace {

// The launch of `clusters` clusters of `shape`: its config points at `cluster`, which the
// caller keeps alive until the launch.
cudaLaunchConfig_t cluster_config(ClusterShape shape, long long clusters,
                                  cudaLaunchAttribute* cluster) {
  *cluster = {};
  cluster->id = cudaLaunchAttributeClusterDimension;
  cluster->val.clusterDim.x = shape.blocks;
  cluster->val.clusterDim.y = 1;
  cluster->val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(clusters * shape.blocks));
  config.blockDim = dim3(shape.threads);
  config.dynamicSmemBytes = shape.shared_bytes;
  config.attrs = cluster;
  config.numAttrs = 1;
  return config;
}

}  // namespace

int resident_clusters(const void* kernel, ClusterShape shape) {
  // Kept for the next call under a lock: host threads may launch at once.
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, int> asked;  // (kernel, device) -> clusters
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  const auto known = asked.find({kernel, device});
  if (known != asked.end()) return known->second;
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  shape.shared_bytes));
  cudaLaunchAttribute cluster;
  const cudaLaunchConfig_t one_cluster = cluster_config(shape, 1, &cluster);
  int resident = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveClusters(&resident, kernel, &one_cluster));
  if (resident < 1) throw CudaError("not one cluster of these blocks fits on this GPU");
  asked[{kernel, device}] = resident;
  return resident;
}

void launch_clusters(const void* kernel, ClusterShape shape, long long clusters, void** args) {
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  shape.shared_bytes));
  cudaLaunchAttribute cluster;
  const cudaLaunchConfig_t config = cluster_config(shape, clusters, &cluster);
  CUDA_CHECK(cudaLaunchKernelExC(&config, kernel, args));
}

long long even_rounds_clusters(long long tiles, long long resident) {
  const long long rounds = (tiles + resident - 1) / resident;
  return (tiles + rounds - 1) / rounds;
}

}  // namespace ladder::hopper
