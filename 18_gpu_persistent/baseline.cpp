#include "18_gpu_persistent/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::persistent() {
  return named_variant<MatrixBf16>("18 persistent", persistent_configs().front(),
                                   launch_gemm_persistent);
}

}  // namespace ladder
