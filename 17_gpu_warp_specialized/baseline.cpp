#include "17_gpu_warp_specialized/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::warp_specialized() {
  return named_variant<MatrixBf16>("17 warp-specialized", warp_specialized_configs().front(),
                                   launch_gemm_warp_specialized);
}

}  // namespace ladder
