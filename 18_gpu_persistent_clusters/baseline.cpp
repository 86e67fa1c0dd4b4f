#include <string>

#include "18_gpu_persistent_clusters/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Bf16Gemm baseline::persistent_clusters() {
  const std::string config = persistent_configs().front();
  return {"18 persistent clusters", [config](MatrixBf16 a, MatrixBf16 b, Matrix c) {
            launch_gemm_persistent(config, a, b, c);
          }};
}

}  // namespace ladder
