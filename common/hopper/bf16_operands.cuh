// What the BF16 persistent kernels multiply: A (K-major) and B (N-major), in persistent.cuh's
// slots: a slice 64 BF16 deep (one 128-byte line of the swizzle), a box of B 64 such lines.
#pragma once

#include "common/hopper/persistent.cuh"
#include "common/hopper/warpgroup.cuh"
#include "common/matrix_bf16.hpp"
#include "common/tensor_map.hpp"

namespace ladder::persistent {

struct Bf16Operands : RowsOfA {
  using View = MatrixBf16;
  static constexpr int kSliceK = hopper::kSliceK;
  // B's boxes: 64 columns x 64 K-rows, the one for columns n.. of slice k0.. at (n, k0) of B.
  static CUtensorMap b_map(const MatrixBf16& b) { return make_tensor_map_2d(b, 64, kSliceK); }
  __device__ static int2 b_box(int k0, int n) { return make_int2(n, k0); }
  template <int N>
  __device__ static void multiply(const unsigned char* a_strip, const unsigned char* b_slot,
                                  float (&acc)[N / 2], bool accumulate) {
    multiply_slice<N>(reinterpret_cast<const bf16*>(a_strip),
                      reinterpret_cast<const bf16*>(b_slot), acc, accumulate);
  }
};

}  // namespace ladder::persistent
