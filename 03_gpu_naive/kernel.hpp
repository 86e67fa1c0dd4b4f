// Stage 03: the matrix product on the GPU, one thread per element of C, straight from
// global memory. Two ways to hand out the elements, compared by the program.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// Which index of C follows threadIdx.x, the index that counts through a warp.
enum class NaiveMapping {
  rows,  // threadIdx.x -> row of C, as smem-matmul writes it: a warp walks down a column
  cols,  // threadIdx.x -> column of C, as the CUDA programming guide: a warp walks a row
};

// c = a * b on device views (c is a.height x b.width, a.width == b.height), any sizes and
// strides. block is 16 or 32: blocks of block x block threads. Returns once the kernel is
// queued; launch errors throw CudaError, a bad block std::invalid_argument.
void launch_gemm_naive(NaiveMapping mapping, int block, Matrix a, Matrix b, Matrix c);

}  // namespace ladder
