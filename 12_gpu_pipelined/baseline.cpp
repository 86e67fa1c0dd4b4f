#include <string>

#include "12_gpu_pipelined/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::pipelined(int m, int n) {
  const std::string name = pipelined_config_for(m, n);
  return named_variant<Matrix>("12 pipelined FP32 " + name, name, launch_gemm_pipelined);
}

baseline::FloatGemm baseline::pipelined_fp32() {
  return named_variant<Matrix>("12 pipelined (FP32 FMA)", "auto", launch_gemm_pipelined);
}

}  // namespace ladder
