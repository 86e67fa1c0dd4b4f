// What the GPU stages are measured against: cuBLAS SGEMM in pure FP32 for the matrix
// products, a copy kernel with the transposes' launch shape for the transposes.
#pragma once

#include "common/matrix.hpp"

struct cublasContext;

namespace ladder {

class CublasGemm {
 public:
  CublasGemm();
  ~CublasGemm();
  CublasGemm(const CublasGemm&) = delete;
  CublasGemm& operator=(const CublasGemm&) = delete;

  // c = a * b on device views, row-major like every other stage. Compute type
  // CUBLAS_COMPUTE_32F with the default math mode: FP32 FMA units, never TF32.
  void operator()(Matrix a, Matrix b, Matrix c);

 private:
  cublasContext* handle_ = nullptr;
};

// out = in (same shape), in tile x tile blocks of tile x block_rows threads: each thread
// moves tile / block_rows elements, as the transposes do. The layouts of
// transpose_layouts (common/tile_dispatch.hpp); std::invalid_argument for any other.
void launch_tiled_copy(Matrix in, Matrix out, int tile, int block_rows);

// The same copy staged through a shared-memory tile with the transposes' barrier: each
// thread stores its elements into the tile, the block waits, and each thread reads back the
// SAME positions and writes them out. Everything a shared-memory transpose pays (the trip
// through shared memory, __syncthreads) except the transposition and its bank conflicts.
void launch_shared_copy(Matrix in, Matrix out, int tile, int block_rows);

}  // namespace ladder
