// Stage 09: register tiling. Each thread computes several elements of C in registers, so a
// value read from shared memory once feeds several multiply-adds.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

enum class RegisterTiling {
  one_d,  // each thread a column of TM elements of C: one value of B feeds TM multiply-adds
  two_d,  // each thread a TM x TN block of C: TM + TN values feed TM * TN multiply-adds
};

// c = a * b on device views (c is a.height x b.width, a.width == b.height), any sizes and
// strides; 4-byte global loads and stores. Returns once the kernel is queued; launch errors
// throw CudaError, mismatched shapes std::invalid_argument.
void launch_gemm_register_tiled(RegisterTiling variant, Matrix a, Matrix b, Matrix c);

}  // namespace ladder
