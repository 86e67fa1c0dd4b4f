#include <string>

#include "16_gpu_tma_wgmma/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::tma_wgmma() {
  const std::string config = tma_wgmma_configs().front();
  return {"16 TMA + wgmma", [config](MatrixBf16 a, MatrixBf16 b, Matrix c) {
            launch_gemm_tma_wgmma(config, a, b, c);
          }};
}

}  // namespace ladder
