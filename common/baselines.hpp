// The kernels a stage's program times beside its own as the baseline, in the same run. A
// program reaches a baseline here, never through another stage's headers: the stage named
// defines it in its baseline.cpp, and the program's ladder_stage() names that stage in USES.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "common/matrix.hpp"

namespace ladder {

struct MatrixBf16;       // common/matrix_bf16.hpp, which CPU-only builds cannot include
enum class OperandPath;  // common/operand_path.hpp

namespace baseline {

// A matrix product to time, and the row's label, which names the stage and its variant.
template <class View>
struct Gemm {
  std::string label;
  std::function<void(View a, View b, Matrix c)> launch;
};
using FloatGemm = Gemm<Matrix>;
using Bf16Gemm = Gemm<MatrixBf16>;

// The variant `name` of a stage whose launcher takes its variants by name, under `label`.
template <class View>
Gemm<View> named_variant(std::string label, std::string name,
                         OperandPath (*launch)(const std::string&, View, View, Matrix)) {
  return {std::move(label),
          [name = std::move(name), launch](View a, View b, Matrix c) { launch(name, a, b, c); }};
}

// A transpose of `in` into `out`, with its tile and block rows.
using Transpose = void (*)(Matrix in, Matrix out, int tile, int block_rows);

FloatGemm cpu_naive();              // 01: i-j-k
FloatGemm gpu_naive(int block);     // 03: threadIdx.x -> column, block x block threads
FloatGemm shared_tiled(int side);   // 04: square tiles of side x side
Transpose transpose_naive();        // 06
Transpose transpose_shared();       // 07
Transpose transpose_padded();       // 08
FloatGemm register_tiled();         // 09: the 2D register tiles
FloatGemm vectorized();             // 10
FloatGemm warp_tiled();             // 11: its default tiling
FloatGemm pipelined(int m, int n);  // 12: the tiling it would choose for an m x n C
FloatGemm pipelined_fp32();         // 12: its default ("auto"), for a TF32 row to beat
Bf16Gemm wmma();                    // 13
Bf16Gemm mma_ldmatrix();            // 14
Bf16Gemm mma_pipelined();           // 15
Bf16Gemm tma_wgmma();               // 16
Bf16Gemm warp_specialized();        // 17
Bf16Gemm persistent();              // 18
Bf16Gemm clusters();                // 19

}  // namespace baseline
}  // namespace ladder
