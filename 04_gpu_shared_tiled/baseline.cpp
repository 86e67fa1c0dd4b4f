#include <string>

#include "04_gpu_shared_tiled/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::shared_tiled(int side) {
  return {"04 square tile " + std::to_string(side), [side](Matrix a, Matrix b, Matrix c) {
            launch_gemm_tiled(TilePolicy::square, side, a, b, c);
          }};
}

}  // namespace ladder
