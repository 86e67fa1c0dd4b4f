#include "09_gpu_register_tiled/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::register_tiled() {
  return {"09 2D: 128x128 block, 8x8 per thread", [](Matrix a, Matrix b, Matrix c) {
            launch_gemm_register_tiled(RegisterTiling::two_d, a, b, c);
          }};
}

}  // namespace ladder
