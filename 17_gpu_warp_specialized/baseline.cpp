#include <string>

#include "17_gpu_warp_specialized/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::warp_specialized() {
  const std::string config = warp_specialized_configs().front();
  return {"17 warp-specialized", [config](MatrixBf16 a, MatrixBf16 b, Matrix c) {
            launch_gemm_warp_specialized(config, a, b, c);
          }};
}

}  // namespace ladder
