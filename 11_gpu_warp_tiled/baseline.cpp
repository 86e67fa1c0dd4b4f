#include <string>

#include "11_gpu_warp_tiled/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::warp_tiled() {
  const std::string name = warp_tiled_configs().front();
  return named_variant<Matrix>("11 warp tiled " + name, name, launch_gemm_warp_tiled);
}

}  // namespace ladder
