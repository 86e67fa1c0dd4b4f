#include "03_gpu_naive/kernel.hpp"

#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "common/grid.hpp"

namespace ladder {
namespace {

// smem-matmul's mapping, its bugs fixed: x counts rows. Neighbouring threads of a warp then
// sit in different rows: their loads of A and stores to C lie a row stride apart, one
// 32-byte sector each, while they all read the same few floats of B.
__global__ void gemm_naive_rows(Matrix a, Matrix b, Matrix c) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= c.height || col >= c.width) return;  // the last blocks overhang C
  float sum = 0.0f;
  for (int k = 0; k < a.width; ++k) sum += a.get(row, k) * b.get(k, col);
  c.set(row, col, sum);
}

// The programming guide's mapping: x counts columns. Neighbouring threads read
// neighbouring floats of B and write neighbouring floats of C (8 to a sector), and share
// the element of A their row needs.
__global__ void gemm_naive_cols(Matrix a, Matrix b, Matrix c) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= c.height || col >= c.width) return;
  float sum = 0.0f;
  for (int k = 0; k < a.width; ++k) sum += a.get(row, k) * b.get(k, col);
  c.set(row, col, sum);
}

}  // namespace

void launch_gemm_naive(NaiveMapping mapping, int block, Matrix a, Matrix b, Matrix c) {
  check_gemm_shapes(a, b, c);
  if (block != 16 && block != 32) {
    throw std::invalid_argument("naive GEMM block must be 16 or 32, got " +
                                std::to_string(block));
  }
  if (c.empty()) return;
  const dim3 threads(block, block);
  if (mapping == NaiveMapping::rows) {
    // The grid's x axis must cover what threadIdx.x counts: here, the rows of C.
    gemm_naive_rows<<<grid_covering(c.height, c.width, block, block), threads>>>(a, b, c);
  } else {
    gemm_naive_cols<<<grid_covering(c.width, c.height, block, block), threads>>>(a, b, c);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder
