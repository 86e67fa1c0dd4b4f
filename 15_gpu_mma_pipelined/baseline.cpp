#include <string>

#include "15_gpu_mma_pipelined/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::mma_pipelined() {
  const std::string name = mma_pipelined_configs().front();
  return named_variant<MatrixBf16>("15 mma.sync pipelined " + name, name,
                                   launch_gemm_mma_pipelined);
}

}  // namespace ladder
