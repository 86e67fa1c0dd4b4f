#include <string>

#include "13_gpu_wmma/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::wmma() {
  const std::string name = wmma_configs().front();
  return named_variant<MatrixBf16>("13 wmma " + name, name, launch_gemm_wmma);
}

}  // namespace ladder
