// Stage 22: FP8. Stage 19's persistent clusters on E4M3 operands, A (m x k) and B^T (n x k),
// with the partial sums promoted into FP32 registers every few slices; scales per tensor or per
// block. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/hopper/tile_model.hpp"
#include "common/hopper/tile_parts.hpp"
#include "common/matrix.hpp"
#include "common/matrix_fp8.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants by name: the first the default, by_size, which runs one of the tilings promoted
// every slice by a model of their times (common/hopper/tile_model.hpp); the others those
// tilings and the ablations of promotion (every 2 or 4 slices of 128, or never).
std::vector<std::string> fp8_configs();

// What by_size's model prices each of fp8_configs() as (block_n 0: not among its choices), and
// the one it runs for A and B^T on `gpu` (their shapes and strides; no data read), by name: the
// fastest on the constants fitted to the per-tensor kernels or to the per-block ones.
std::vector<Candidate> fp8_priced();
enum class Fp8Scaling { per_tensor, per_block };
std::string fp8_by_size_pick(Fp8Scaling scaling, MatrixFp8 a, MatrixFp8 b_t, const ModelGpu& gpu);

// How many products of K the tensor cores sum between two promotions under `config` (k where
// it never promotes): the window of the error bound fp8_gemm_gamma.
int fp8_promotion_window(const std::string& config, int k);

// c = (a.values / a's scale)(b_t.values / b_t's scale)^T, FP32: a is m x k, b_t n x k (B
// transposed: wgmma reads FP8 K-major only), c m x n; any sizes and strides. Returns
// OperandPath::tma, or OperandPath::tma_after_copy where an operand's rows are not whole 16
// bytes and the kernel read a copy of them (common/hopper/tma_readable.hpp). The divided
// variants keep their partial tiles in `workspace`, the caller's, as stage 21's. Mismatched
// shapes, an unknown variant or a workspace made on another device throw
// std::invalid_argument, a GPU other than sm_90 UnsupportedGpuError.
OperandPath launch_gemm_fp8(const std::string& config, ScaledFp8 a, ScaledFp8 b_t, Matrix c,
                            const StreamKWorkspace& workspace);

// Per-block scales: one dequantisation factor (1 / scale) per block of 1 x 128 elements of A
// (a.dequantize: m x ceil(k / 128)) and per block of 128 x 128 of B^T (b_t.dequantize:
// ceil(n / 128) x ceil(k / 128)), device views, applied as each slice's sums are promoted.
// Factor matrices of another shape, or views that break check_view's rule (stride < width,
// int offsets that overflow), throw std::invalid_argument; a stride past the width is honoured.
inline constexpr int kFp8ScaleBlock = 128;
// `loads`: when the kernel loads a slice's factors, a slice ahead (the default) or at the
// promotion that applies them (the ablation of README.md, E). `config`: by_size (the model's
// tiling, as per tensor) or one of the tilings it chooses among, fp8_block_configs(); another
// name throws std::invalid_argument.
enum class FactorLoads { slice_ahead, at_promotion };
OperandPath launch_gemm_fp8_block_scaled(BlockScaledFp8 a, BlockScaledFp8 b_t, Matrix c,
                                         const StreamKWorkspace& workspace,
                                         FactorLoads loads = FactorLoads::slice_ahead,
                                         const std::string& config = "by_size");
// The per-block variants by name: by_size first, then the tilings.
std::vector<std::string> fp8_block_configs();

// The whole call from FP32, queued on the default stream: A's and B's scales, A quantised as it
// is and B into B^T, then the default's product. work's a (m x k) and b_t (n x k) are the
// caller's buffers, as `workspace` is; with rows of whole 16 bytes the product reads them
// without a copy.
OperandPath launch_gemm_fp8_from_float(Matrix a, Matrix b, const Fp8Workspace& work, Matrix c,
                                       const StreamKWorkspace& workspace);

}  // namespace ladder
