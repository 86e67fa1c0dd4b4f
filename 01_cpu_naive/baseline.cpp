#include "01_cpu_naive/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::FloatGemm baseline::cpu_naive() { return {"i-j-k (stage 01)", gemm_cpu_naive}; }

}  // namespace ladder
