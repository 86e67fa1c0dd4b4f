// What stage 22 does around its kernels, as TensorGemmBench does for BF16: random FP32 inputs
// quantised to E4M3 on the device (per tensor: A as it is, B into B^T), or on the host with
// per-block scales; timing; a full check of every result against the product of the values
// the E4M3 operands stand for; cuBLASLt FP8 as the ceiling, per tensor and block-scaled; and the
// quantisation's own rows against the copy ceiling. Part of ladder_harness_gpu.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/device_matrix_fp8.hpp"
#include "common/harness/program.hpp"
#include "common/matrix.hpp"

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

class Fp8GemmBench {
 public:
  using Launch = std::function<void(ScaledFp8 a, ScaledFp8 b_t, Matrix c)>;
  // The stage's launchers return the path they took; each row's label ends with its name.
  using PathLaunch = std::function<OperandPath(ScaledFp8 a, ScaledFp8 b_t, Matrix c)>;
  using BlockLaunch = std::function<OperandPath(MatrixFp8 a, Matrix a_dequantize, MatrixFp8 b_t,
                                                Matrix b_dequantize, Matrix c)>;
  using FloatLaunch = std::function<OperandPath(Matrix a, Matrix b, Matrix c)>;

  // Random FP32 A and B as every GEMM bench makes them (options.seed, seed + 1), quantised per
  // tensor on the device by `quantizers` before anything is timed (Fp8Operands). Throws
  // UsageError when the problem does not fit this machine's memory.
  Fp8GemmBench(const GemmShape& shape, const RunOptions& options,
               const Fp8Quantizers& quantizers);
  ~Fp8GemmBench();

  // Times `launch` on the per-tensor operands (C poisoned and L2 flushed before each run, as
  // every bench), checks C within gamma * sum_k |a_ik b_kj| of the product of the values the
  // operands stand for, adds a row.
  void run(Report& report, const std::string& variant, Role role, const Launch& launch,
           double gamma);
  // The same for a launcher that returns its path: the label ends in ", " and its name.
  void run_on_path(Report& report, const std::string& variant, Role role,
                   const PathLaunch& launch, PathName name, double gamma);
  // The same on per-block operands (BlockFp8Operands, made the first time).
  void run_block_scaled(Report& report, const std::string& variant, Role role,
                        const BlockLaunch& launch, PathName name, double gamma);
  // The whole call from FP32 A and B (quantisation inside the time), checked as run's rows:
  // the launch must quantise as the per-tensor operands were.
  void run_from_float(Report& report, const std::string& variant, Role role,
                      const FloatLaunch& launch, PathName name, double gamma);
  // The ceiling: cuBLASLt FP8 on the per-tensor operands, with promotion (its default) or
  // without (fast accumulation). Both rows are ceilings, never the stage's own; every % refers
  // to the first one run, the default (Report::ceiling). Where cuBLASLt has
  // no algorithm for the shape (4095^3 on the H100, for one), no row, and a note on stderr.
  void run_cublaslt(Report& report, bool fast_accumulation, double gamma);
  // The per-block ceiling: cuBLASLt's own block-scaled FP8 (cuBLAS 12.9 and newer, Hopper) on
  // the per-block operands, its factors copied into the layouts it reads (CublasLtBlockFactors)
  // before anything is timed. A ceiling row, run after run_cublaslt's so that the report's
  // % column still refers to the per-tensor default (block_scaled_share gives the per-block
  // variant's % of this one). Where cuBLASLt's documentation rules the shape out, or its
  // heuristic has no algorithm, no row, and a note on stderr saying which and why.
  void run_cublaslt_block_scaled(Report& report, double gamma);
  // "<per-block row>: X% of <block-scaled ceiling> in the same run": the last run_block_scaled
  // row's rate over run_cublaslt_block_scaled's, or "" where either row is missing.
  std::string block_scaled_share() const;

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
