#include "20_gpu_tf32/kernel.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "20_gpu_tf32/tf32_swapped.hpp"
#include "common/aligned_access.hpp"
#include "common/config_table.hpp"
#include "common/hopper/persistent.cuh"
#include "common/hopper/persistent_kernel.cuh"
#include "common/hopper/tma_readable.hpp"
#include "common/hopper/warpgroup.cuh"
#include "common/tensor_cores.hpp"
#include "common/tensor_map_fp32.hpp"

namespace ladder {
namespace {

using namespace hopper;
using namespace persistent;

// What the ablation multiplies: A and B^T, both K-major. A slice is 128 bytes deep as BF16's
// (32 floats), and a box of B^T 64 such rows (8 KB), so the ring, the barriers and the byte
// counts are Bf16Operands' (persistent.cuh).
struct Tf32Operands : RowsOfA {
  using View = Matrix;
  static constexpr int kSliceK = kSliceFloats;
  // B^T's boxes: 32 K-columns x 64 rows (64 columns of B), at (column k0, row n) of B^T.
  static CUtensorMap b_map(const Matrix& b_t) { return make_tensor_map_2d(b_t, kSliceK, 64); }
  __device__ static int2 b_box(int k0, int n) { return make_int2(k0, n); }
  // multiply_slice (warpgroup.cuh) for TF32: four k8 steps, each 32 bytes along the rows of
  // both A and B^T.
  template <int N>
  __device__ static void multiply(const unsigned char* a_strip, const unsigned char* b_slot,
                                  float (&acc)[N / 2], bool accumulate) {
    static_assert(N == 192 || N == 256, "scripts/wgmma_wrappers.py writes TF32 n192 and n256");
#pragma unroll
    for (int k = 0; k < kSliceFloats / 8; ++k) {
      const std::uint64_t a = descriptor(a_strip + k * 32, 16, kSwizzleAtomBytes);
      const std::uint64_t b = descriptor(b_slot + k * 32, 16, kSwizzleAtomBytes);
      if constexpr (N == 192) wgmma_m64n192k8_tf32(acc, a, b, (accumulate || k > 0) ? 1 : 0);
      if constexpr (N == 256) wgmma_m64n256k8_tf32(acc, a, b, (accumulate || k > 0) ? 1 : 0);
    }
  }
};

// The default and its tilings, all on B as given (tf32_swapped.cu)...
const NamedLaunch<void (*)(Matrix a, Matrix b, Matrix c)> kTf32Variants[] = {
    {"by_size", launch_tf32_swapped_by_size},
    {"swapped_128x256_c2_g8", launch_tf32_swapped_pairs},
    {"swapped_128x256_c1_g8", launch_tf32_swapped_alone},
};

// ...and the ablation: the persistent kernel on A and B^T, with the tilings that change the most.
const NamedLaunch<void (*)(Matrix a, Matrix b_t, Matrix c)> kTf32TransposingVariants[] = {
    {"transposed_by_size", launch_best<Tf32Operands>},
    {"transposed_128x256_c2_g8", launch_persistent<Tf32Operands, Wide>},
    {"transposed_128x256_c2_g8_uneven",
     launch_persistent<Tf32Operands, Config<128, 256, 64, 2, false>>},
    {"transposed_128x192_c2_g8", launch_persistent<Tf32Operands, Narrow>},
    {"transposed_128x192_c1_g8", launch_persistent<Tf32Operands, NarrowAlone>},
    {"transposed_128x256_c1_g8", launch_persistent<Tf32Operands, WideAlone>},
};

}  // namespace

std::vector<std::string> tf32_configs() { return config_names(kTf32Variants); }

std::vector<std::string> tf32_transposing_configs() {
  return config_names(kTf32TransposingVariants);
}

int transposed_b_stride(int k) { return (k + 31) / 32 * 32; }

OperandPath launch_gemm_tf32(const std::string& config, Matrix a, Matrix b, Matrix c) {
  const auto& variant = find_config(kTf32Variants, config, "stage 20 has no variant");
  check_gemm_shapes(a, b, c);
  require_hopper();
  return launch_on_readable_rows(a, b, c, [&](Matrix a_rows, Matrix b_rows) {
    variant.launch(a_rows, b_rows, c);
  });
}

OperandPath launch_gemm_tf32_transposed(const std::string& config, Matrix a, Matrix b_t, Matrix c) {
  const auto& variant =
      find_config(kTf32TransposingVariants, config, "stage 20 has no variant from B^T");
  check_view(a);
  check_view(b_t);
  check_view(c);
  auto shape = [](const Matrix& m) {
    return std::to_string(m.height) + "x" + std::to_string(m.width);
  };
  if (a.height != c.height || b_t.height != c.width || a.width != b_t.width) {
    throw std::invalid_argument("stage 20: A (" + shape(a) + "), B^T (" + shape(b_t) + ") and C (" +
                                shape(c) + ") must be m x k, n x k and m x n");
  }
  if (!allows_float4(b_t)) {
    throw std::invalid_argument(
        "stage 20: the B^T workspace needs 16-byte-aligned rows (allows_float4); "
        "transposed_b_stride(k) gives rows of whole 128-byte lines");
  }
  require_hopper();
  // B^T, the caller's workspace, is checked to be readable above: it is never copied.
  return launch_on_readable_rows(a, b_t, c, [&](Matrix a_rows, Matrix b_t_rows) {
    variant.launch(a_rows, b_t_rows, c);
  });
}

}  // namespace ladder
