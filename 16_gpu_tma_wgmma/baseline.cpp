#include "16_gpu_tma_wgmma/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::tma_wgmma() {
  return named_variant<MatrixBf16>("16 TMA + wgmma", tma_wgmma_configs().front(),
                                   launch_gemm_tma_wgmma);
}

}  // namespace ladder
