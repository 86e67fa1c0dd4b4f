// What stage 22 does around its kernels, as TensorGemmBench does for BF16: the BF16 baseline on
// the same inputs; random FP32 inputs quantised to E4M3 on the device (per tensor: A as it is,
// B into B^T), or on the host with per-block scales; timing; a full check of every result
// against the product of the values the E4M3 operands stand for; cuBLASLt FP8 as the ceiling,
// per tensor and block-scaled; and the quantisation's own rows against the copy ceiling. Part of
// ladder_harness_gpu.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/matrix.hpp"
#include "common/matrix_fp8.hpp"

namespace ladder {

// Rows of whole 16 bytes for an FP8 matrix of `width` columns: TMA's and cuBLASLt's alignment.
inline int fp8_stride(int width) { return (width + 15) / 16 * 16; }

// The quantisation on the device that the bench runs: the program's own (stage 22's,
// 22_gpu_fp8/quantize.hpp), since the harness links no stage. Each queues its work on the
// default stream.
struct Fp8Quantizers {
  void (*scale)(Matrix src, Fp8Scale* scale);                             // the per-tensor scale
  void (*same_layout)(Matrix src, const Fp8Scale* scale, MatrixFp8 dst);  // A into E4M3
  void (*transposed)(Matrix src, const Fp8Scale* scale, MatrixFp8 dst);   // B into E4M3 B^T
};

// The baseline row: a BF16 kernel on the same random inputs rounded to BF16 (TensorGemmBench),
// its label ending in " (BF16)". Called before the Fp8GemmBench is made, so that the two
// benches never hold GPU memory at once.
void run_bf16_baseline(Report& report, const GemmShape& shape, const RunOptions& options,
                       const baseline::Bf16Gemm& gemm);

class Fp8GemmBench {
 public:
  // The stage's launchers return the path they took; each row's label ends with its name.
  using PathLaunch = std::function<OperandPath(ScaledFp8 a, ScaledFp8 b_t, Matrix c)>;
  using BlockLaunch = std::function<OperandPath(BlockScaledFp8 a, BlockScaledFp8 b_t, Matrix c)>;
  using FloatLaunch =
      std::function<OperandPath(Matrix a, Matrix b, const Fp8Workspace& work, Matrix c)>;

  // Random FP32 A and B as every GEMM bench makes them (options.seed, seed + 1), quantised per
  // tensor on the device by `quantizers` before anything is timed (Fp8Operands). Throws
  // UsageError when the problem does not fit this machine's memory.
  Fp8GemmBench(const GemmShape& shape, const RunOptions& options,
               const Fp8Quantizers& quantizers);
  ~Fp8GemmBench();

  // Times `launch` on the per-tensor operands (C poisoned and L2 flushed before each run, as
  // every bench), checks C against the product of the values the operands stand for, within
  // fp8_gemm_gamma(K, window): the tensor cores sum `window` products between two promotions
  // to FP32, which is what the error depends on. Adds a row labelled "variant, <path name>".
  void run_on_path(Report& report, const std::string& variant, Role role,
                   const PathLaunch& launch, PathName name, int window);
  // The same on per-block operands (BlockFp8Operands, made the first time).
  void run_block_scaled(Report& report, const std::string& variant, Role role,
                        const BlockLaunch& launch, PathName name, int window);
  // The whole call from FP32 A and B (quantisation inside the time) into the bench's own
  // workspace, checked as run_on_path's rows: the launch must quantise as the per-tensor
  // operands were.
  void run_from_float(Report& report, const std::string& variant, Role role,
                      const FloatLaunch& launch, PathName name, int window);
  // The ceilings, cuBLASLt FP8 on the same operands: per tensor with promotion (its default)
  // and without (fast accumulation), then its own block scaling (cuBLAS 12.9 and newer) on the
  // per-block operands. Every % column refers to the first (Report::ceiling), so the
  // block-scaled row, the per-block row's own ceiling, comes last. Where cuBLASLt has no
  // algorithm for the shape, or its documentation rules the shape out, no row, and a note on
  // stderr saying which and why.
  void run_cublaslt(Report& report);
  // After the report: "<per-block row>: X% of <block-scaled ceiling> in the same run", on
  // stdout under the table, on stderr beside CSV (which stays one header and its rows);
  // nothing where either row is missing.
  void print_block_scaled_share() const;

  // The quantisation passes over B, in GB/s of bytes read and written: cudaMemcpy of its
  // floats (the ceiling of the GB/s rows), its scale (reads B), B into E4M3 in the same layout
  // and into B^T (each reads 4 bytes and writes 1 an element). Each result is checked against
  // the host's quantisation, bit for bit.
  void run_quantisation(Report& report);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ladder
