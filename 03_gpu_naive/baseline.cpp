#include <string>

#include "03_gpu_naive/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::gpu_naive(int block) {
  const std::string side = std::to_string(block);
  return {"03 threadIdx.x->col " + side + "x" + side, [block](Matrix a, Matrix b, Matrix c) {
            launch_gemm_naive(NaiveMapping::cols, block, a, b, c);
          }};
}

}  // namespace ladder
