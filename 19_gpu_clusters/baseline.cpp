#include "19_gpu_clusters/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::clusters() {
  return named_variant<MatrixBf16>("19 clusters", cluster_configs().front(),
                                   launch_gemm_clusters);
}

}  // namespace ladder
