#include "10_gpu_vectorized/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::vectorized() {
  return {"10 vectorized 128x128x16",
          [](Matrix a, Matrix b, Matrix c) { launch_gemm_vectorized(a, b, c); }};
}

}  // namespace ladder
