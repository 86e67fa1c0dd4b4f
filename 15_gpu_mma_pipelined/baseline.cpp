#include <string>

#include "15_gpu_mma_pipelined/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::mma_pipelined() {
  const std::string config = mma_pipelined_configs().front();
  return {"15 mma.sync pipelined " + config, [config](MatrixBf16 a, MatrixBf16 b, Matrix c) {
            launch_gemm_mma_pipelined(config, a, b, c);
          }};
}

}  // namespace ladder
