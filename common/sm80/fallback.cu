#include "common/sm80/fallback.hpp"

#include "common/aligned_access.hpp"
#include "common/sm80/mma_pipeline.cuh"

namespace ladder {
namespace {

// Stage 15's default tiling, as its own type here: the kernel this file instantiates stays
// this file's, apart from the one stage 15's kernel file instantiates from the same template.
struct FallbackTiling : mma::PipelineConfig<128, 128, 64, 64, 3> {};

}  // namespace

OperandPath launch_gemm_sm80_fallback(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  const OperandPath path = sixteen_byte_path({a, b});
  if (!c.empty()) mma::launch_mma_pipelined<FallbackTiling>(path, a, b, c);
  return path;
}

}  // namespace ladder
