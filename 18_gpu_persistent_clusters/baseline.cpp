#include "18_gpu_persistent_clusters/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::persistent_clusters() {
  return named_variant<MatrixBf16>("18 persistent clusters", persistent_configs().front(),
                                   launch_gemm_persistent);
}

}  // namespace ladder
