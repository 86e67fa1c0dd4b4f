#include <string>

#include "14_gpu_mma_ldmatrix/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::mma_ldmatrix() {
  const std::string config = mma_configs().front();
  return {"14 mma.sync " + config,
          [config](MatrixBf16 a, MatrixBf16 b, Matrix c) { launch_gemm_mma(config, a, b, c); }};
}

}  // namespace ladder
