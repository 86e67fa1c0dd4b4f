// The launch path the BF16 Hopper stages share, host side (the device side is common/hopper/):
// each stage's table of named variants (the first the default, the others ablations or other
// tilings); one launcher that runs a variant after checking the shapes and the GPU, or takes
// the fallback, stage 15's kernel, where A or B allow no tensor map; and the launch
// of one block per tile of C that stages 16 and 17 make.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only)

#include "common/config_table.hpp"
#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// How the BF16 Hopper stages' programs label the path: "TMA path", or the fallback to stage 15's
// kernel, which on operands that allow no tensor map copies element by element.
inline const char* tma_path_name(OperandPath path) {
  return path == OperandPath::tma ? path_name(path) : "fallback to stage 15's scalar path";
}

// A variant of a stage's kernel by name; `launch` runs it on the TMA path, on checked operands.
using HopperVariant = NamedLaunch<void (*)(MatrixBf16 a, MatrixBf16 b, Matrix c)>;

// Checks c = a * b's shapes and the GPU (mismatched shapes throw std::invalid_argument, a GPU
// other than sm_90 UnsupportedGpuError). Where A or B allow no tensor map, queues the product on
// the fallback, stage 15's kernel, and returns its path; else returns OperandPath::tma and
// queues nothing: the caller launches its own kernel (stage 21, whose kernels take more).
OperandPath fall_back_unless_tma(MatrixBf16 a, MatrixBf16 b, Matrix c);

// c = a * b with `variant`, or the fallback; returns the path taken once the kernel
// is queued; the errors as fall_back_unless_tma's.
OperandPath launch_hopper_variant(const HopperVariant& variant, MatrixBf16 a, MatrixBf16 b,
                                  Matrix c);

// A kernel of stages 16 and 17: A's and B's tensor maps, K, and C.
using PerTileKernel = void (*)(CUtensorMap a_map, CUtensorMap b_map, int k, Matrix c);

// What such a kernel is built for: one block of `threads` per block_m x block_n tile of C,
// `shared_bytes` of dynamic shared memory each.
struct PerTileShape {
  int block_m;
  int block_n;
  int threads;
  int shared_bytes;
};

// Launches `kernel` with one block per tile of c, given A's tensor map (boxes of 64 columns x
// block_m rows) and B's (64 x 64 boxes).
void launch_per_tile(PerTileKernel kernel, const PerTileShape& shape, MatrixBf16 a, MatrixBf16 b,
                     Matrix c);

// The same for a kernel built for the tile type T (its kBlockM, kBlockN, kThreads and
// kSharedBytes).
template <class T>
void launch_per_tile(PerTileKernel kernel, MatrixBf16 a, MatrixBf16 b, Matrix c) {
  launch_per_tile(kernel, {T::kBlockM, T::kBlockN, T::kThreads, T::kSharedBytes}, a, b, c);
}

}  // namespace ladder
