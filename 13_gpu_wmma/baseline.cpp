#include <string>

#include "13_gpu_wmma/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::wmma() {
  const std::string config = wmma_configs().front();
  return {"13 wmma " + config,
          [config](MatrixBf16 a, MatrixBf16 b, Matrix c) { launch_gemm_wmma(config, a, b, c); }};
}

}  // namespace ladder
