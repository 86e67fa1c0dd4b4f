#include "common/hopper/launch.hpp"
#include "common/hopper/per_tile_launch.hpp"

#include "common/aligned_access.hpp"
#include "common/cuda_check.hpp"
#include "common/hopper/warpgroup.cuh"
#include "common/sm80/fallback.hpp"
#include "common/tensor_cores.hpp"
#include "common/tensor_map.hpp"

namespace ladder {
namespace {

// OperandPath::tma where A and B can be described by tensor maps, which need 16-byte aligned
// rows (sixteen_byte_path) and no empty dimension; else the fallback's own path, stage 15's
// kernel on a and b (the element path, unless a dimension is empty).
OperandPath tma_path(const MatrixBf16& a, const MatrixBf16& b) {
  const bool empty = a.width == 0 || a.height == 0 || b.width == 0;
  const OperandPath fallback = sixteen_byte_path({a, b});  // stage 15's on a and b
  return !empty && fallback == OperandPath::sixteen_byte ? OperandPath::tma : fallback;
}

}  // namespace

OperandPath fall_back_unless_tma(MatrixBf16 a, MatrixBf16 b, Matrix c) {
  check_gemm_shapes(a, b, c);
  require_hopper();
  if (tma_path(a, b) != OperandPath::tma) {
    return launch_gemm_sm80_fallback(a, b, c);
  }
  return OperandPath::tma;
}

OperandPath launch_hopper_variant(const HopperVariant& variant, MatrixBf16 a, MatrixBf16 b,
                                  Matrix c) {
  const OperandPath path = fall_back_unless_tma(a, b, c);
  if (path == OperandPath::tma) variant.launch(a, b, c);
  return path;
}

void launch_per_tile(PerTileKernel kernel, const PerTileShape& shape, MatrixBf16 a, MatrixBf16 b,
                     Matrix c) {
  const CUtensorMap a_map = make_tensor_map_2d(a, hopper::kSliceK, shape.block_m);
  const CUtensorMap b_map = make_tensor_map_2d(b, 64, hopper::kSliceK);
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  shape.shared_bytes));
  const long long tiles = static_cast<long long>((c.height + shape.block_m - 1) / shape.block_m) *
                          ((c.width + shape.block_n - 1) / shape.block_n);
  kernel<<<static_cast<unsigned>(tiles), shape.threads, shape.shared_bytes>>>(a_map, b_map,
                                                                              a.width, c);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ladder
