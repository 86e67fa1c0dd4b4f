#include <string>

#include "12_gpu_pipelined/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::pipelined(int m, int n) {
  const std::string config = pipelined_config_for(m, n);
  return {"12 pipelined FP32 " + config,
          [config](Matrix a, Matrix b, Matrix c) { launch_gemm_pipelined(config, a, b, c); }};
}

baseline::FloatGemm baseline::pipelined_fp32() {
  return {"12 pipelined (FP32 FMA)",
          [](Matrix a, Matrix b, Matrix c) { launch_gemm_pipelined("auto", a, b, c); }};
}

}  // namespace ladder
