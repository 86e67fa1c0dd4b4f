#include <string>

#include "11_gpu_warp_tiled/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::warp_tiled() {
  const std::string config = warp_tiled_configs().front();
  return {"11 warp tiled " + config,
          [config](Matrix a, Matrix b, Matrix c) { launch_gemm_warp_tiled(config, a, b, c); }};
}

}  // namespace ladder
