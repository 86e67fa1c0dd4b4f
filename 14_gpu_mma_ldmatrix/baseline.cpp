#include <string>

#include "14_gpu_mma_ldmatrix/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::mma_ldmatrix() {
  const std::string name = mma_configs().front();
  return named_variant<MatrixBf16>("14 mma.sync " + name, name, launch_gemm_mma);
}

}  // namespace ladder
