// Stage 05: stage 04's square-tile kernel with its inner product loop written four ways,
// to see what unrolling by hand (gemm-opt) adds to what the compiler already does.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

enum class Unroll {
  none,      // #pragma unroll 1: the loop stays a loop
  manual4,   // gemm-opt: four products per iteration, written out by hand
  full,      // #pragma unroll: every iteration written out
  compiler,  // no pragma, stage 04's loop: the compiler decides
};

// c = a * b on device views (c is a.height x b.width, a.width == b.height), any sizes and
// strides, with stage 04's square tiles of side tile (8, 16 or 32). Returns once the
// kernel is queued; launch errors throw CudaError, a bad tile std::invalid_argument.
void launch_gemm_unrolled(Unroll unroll, int tile, Matrix a, Matrix b, Matrix c);

}  // namespace ladder
