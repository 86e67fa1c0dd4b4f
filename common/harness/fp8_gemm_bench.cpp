#include "common/harness/fp8_gemm_bench.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>

#include "common/device_matrix_fp8.hpp"
#include "common/device_memory.hpp"
#include "common/harness/cublaslt_fp8.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/fp8_operands.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/report.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/harness/time_gemm.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix_fp8.hpp"

namespace ladder {
namespace {

// Checked before the members allocate, for everything a run may make: on the host A, B,
// their per-tensor and per-block widened copies and codes; on the GPU A and B in FP32, twice
// widened (per tensor, per block) and three times in E4M3 (the operands, the per-block ones,
// the whole call's workspaces), C, the quantisation's B-sized buffers (a copy of the floats,
// codes in two layouts) and cuBLASLt's workspace. The per-block factors, a few per 128
// elements, are left out.
const GemmShape& fits_in_memory(const GemmShape& shape) {
  const std::uint64_t m = shape.m, n = shape.n, k = shape.k;
  const std::uint64_t operands = m * k + k * n;
  require_host_memory(shape.describe(), (4 * sizeof(float) + 2) * operands);
  require_device_memory(shape.describe(), (3 * sizeof(float) + 3) * operands +
                                              sizeof(float) * m * n + (sizeof(float) + 2) * k * n +
                                              (32 << 20));
  return shape;
}

// Blocks of BlockFp8Operands::kBlock along an extent, the last one cut short.
int blocks(int extent) {
  return (extent + BlockFp8Operands::kBlock - 1) / BlockFp8Operands::kBlock;
}

// The per-block ceiling's row: cuBLASLt's block scaling with the stage's blocks.
const char* const kCublasLtBlockScaled = "cuBLASLt FP8 block-scaled (1x128 A, 128x128 B)";

// The window cuBLASLt's FP8 rows are checked with where it promotes (its default, and block
// scaling, which applies each block's factors as it promotes): 128 products of K, as the
// stage's default. Fast accumulation never promotes: the whole K.
constexpr int kCublasLtPromotionWindow = 128;

}  // namespace

CheckResult check_codes(const MatrixFp8& got, const MatrixFp8& want) {
  CheckResult result;
  for (int row = 0; row < want.height; ++row) {
    for (int col = 0; col < want.width; ++col) {
      ++result.checked;
      const std::uint8_t g = got.get(row, col).__x;
      const std::uint8_t w = want.get(row, col).__x;
      if (g != w && result.ok) {
        result.ok = false;
        result.row = row;
        result.col = col;
        result.got = static_cast<float>(got.get(row, col));
        result.want = static_cast<float>(want.get(row, col));
        result.error = 1;
      }
    }
  }
  return result;
}

Fp8Operands::Fp8Operands(Matrix a, Matrix b, const Fp8Quantizers& quantizers)
    : a_(a.height, a.width),
      b_(b.height, b.width),
      a8_(a.height, a.width, fp8_stride(a.width)),
      b_t8_(b.width, b.height, fp8_stride(b.height)),
      a_widened_host_(a.height, a.width),
      b_widened_host_(b.height, b.width),
      a_widened_(a.height, a.width),
      b_widened_(b.height, b.width) {
  a_.upload(a);
  b_.upload(b);
  quantizers.scale(a_.view(), a_scale_.get());
  quantizers.scale(b_.view(), b_scale_.get());
  quantizers.same_layout(a_.view(), a_scale_.get(), a8_.view());
  quantizers.transposed(b_.view(), b_scale_.get(), b_t8_.view());
  const float a_factor = a_scale_.download().dequantize;
  const float b_factor = b_scale_.download().dequantize;
  HostMatrixFp8 a_codes(a.height, a.width);
  HostMatrixFp8 b_t_codes(b.width, b.height);
  a8_.download(a_codes.view());
  b_t8_.download(b_t_codes.view());
  widen(
      a_codes.view(), [&](int, int) { return a_factor; }, a_widened_host_.view());
  const Matrix b_widened = b_widened_host_.view();
  for (int row = 0; row < b.height; ++row) {
    for (int col = 0; col < b.width; ++col) {
      b_widened.set(row, col, static_cast<float>(b_t_codes.view().get(col, row)) * b_factor);
    }
  }
  a_widened_.upload(a_widened_host_.view());
  b_widened_.upload(b_widened_host_.view());
}

BlockFp8Operands::BlockFp8Operands(Matrix a, Matrix b)
    : a8_(a.height, a.width, fp8_stride(a.width)),
      b_t8_(b.width, b.height, fp8_stride(b.height)),
      a_factors_(a.height, blocks(a.width)),
      b_factors_(blocks(b.width), blocks(b.height)),
      a_widened_host_(a.height, a.width),
      b_widened_host_(b.height, b.width),
      a_widened_(a.height, a.width),
      b_widened_(b.height, b.width) {
  const int m = a.height, k = a.width, n = b.width;
  const BlockScales a_scales = e4m3_block_scales(a, 1, kBlock);
  const BlockScales b_scales = e4m3_block_scales(b, kBlock, kBlock);
  HostMatrixFp8 a_codes(m, k);
  HostMatrixFp8 b_codes(k, n);
  quantize_e4m3(a, a_scales, a_codes.view());
  quantize_e4m3(b, b_scales, b_codes.view());
  HostMatrixFp8 b_t_codes = transposed(b_codes.view());
  HostMatrix a_factors(m, blocks(k));
  HostMatrix b_factors(blocks(n), blocks(k));
  const Matrix af = a_factors.view(), bf = b_factors.view();
  for (int row = 0; row < m; ++row) {
    for (int s = 0; s < blocks(k); ++s) af.set(row, s, 1.0f / a_scales.at(row, s * kBlock));
  }
  for (int nb = 0; nb < blocks(n); ++nb) {
    for (int s = 0; s < blocks(k); ++s) bf.set(nb, s, 1.0f / b_scales.at(s * kBlock, nb * kBlock));
  }
  a8_.upload(a_codes.view());
  b_t8_.upload(b_t_codes.view());
  a_factors_.upload(af);
  b_factors_.upload(bf);
  widen(
      a_codes.view(), [&](int row, int col) { return af.get(row, col / kBlock); },
      a_widened_host_.view());
  widen(
      b_codes.view(), [&](int row, int col) { return bf.get(col / kBlock, row / kBlock); },
      b_widened_host_.view());
  a_widened_.upload(a_widened_host_.view());
  b_widened_.upload(b_widened_host_.view());
}

// What the bench holds.
struct Fp8GemmBench::State {
  State(const GemmShape& problem, const RunOptions& run_options,
        const Fp8Quantizers& device_quantizers);
  // Times `launch` into c and checks c against the product of the widened operands, within
  // fp8_gemm_gamma(K, window).
  Measurement time_and_check(const std::string& variant, Role role,
                             const std::function<void()>& launch, Matrix a_widened,
                             Matrix b_widened, Matrix a_widened_host, Matrix b_widened_host,
                             int window);
  // The per-block operands, made the first time they are asked for.
  BlockFp8Operands& block();
  // cuBLASLt's block-scaled ceiling row, or a note on stderr saying why there is none.
  void run_cublaslt_block_scaled(Report& report);

  GemmShape shape;
  RunOptions options;
  Fp8Quantizers quantizers;
  HostMatrix a_host;
  HostMatrix b_host;
  Fp8Operands ops;
  DeviceMatrix c;
  CublasLtFp8 cublaslt;
  std::unique_ptr<BlockFp8Operands> block_operands;  // made by block()
  // The per-block factors in cuBLASLt's layouts: made by the first run_cublaslt_block_scaled.
  std::unique_ptr<CublasLtBlockFactors> cublaslt_factors;
  std::unique_ptr<L2Flush> l2_flush;  // null unless options.l2 is "flushed"
  // The rows print_block_scaled_share compares.
  std::optional<Measurement> per_block_row;
  std::optional<Measurement> block_ceiling_row;
};

Fp8GemmBench::State::State(const GemmShape& problem, const RunOptions& run_options,
                           const Fp8Quantizers& device_quantizers)
    : shape(fits_in_memory(problem)),
      options(run_options),
      quantizers(device_quantizers),
      a_host(random_host_matrix(problem.m, problem.k, run_options.seed)),
      b_host(random_host_matrix(problem.k, problem.n, run_options.seed + 1)),
      ops(a_host.view(), b_host.view(), device_quantizers),
      c(problem.m, problem.n) {
  if (run_options.flush_l2()) l2_flush = std::make_unique<L2Flush>();
}

Measurement Fp8GemmBench::State::time_and_check(const std::string& variant, Role role,
                                                const std::function<void()>& launch,
                                                Matrix a_widened, Matrix b_widened,
                                                Matrix a_widened_host, Matrix b_widened_host,
                                                int window) {
  Measurement row = time_gpu_gemm(shape, options, c, l2_flush.get(), launch);
  row.variant = variant;
  row.role = role;
  row.check = check_gemm_on_device(a_widened, b_widened, c.view(), a_widened_host,
                                   b_widened_host, fp8_gemm_gamma(shape.k, window));
  return row;
}

BlockFp8Operands& Fp8GemmBench::State::block() {
  if (!block_operands) {
    block_operands = std::make_unique<BlockFp8Operands>(a_host.view(), b_host.view());
  }
  return *block_operands;
}

Fp8GemmBench::Fp8GemmBench(const GemmShape& shape, const RunOptions& options,
                           const Fp8Quantizers& quantizers)
    : state_(std::make_unique<State>(shape, options, quantizers)) {}

Fp8GemmBench::~Fp8GemmBench() = default;

void run_bf16_baseline(Report& report, const GemmShape& shape, const RunOptions& options,
                       const baseline::Bf16Gemm& gemm) {
  TensorGemmBench bench(shape, options);
  bench.run(report, gemm.label + " (BF16)", Role::baseline, gemm.launch);
}

void Fp8GemmBench::run_on_path(Report& report, const std::string& variant, Role role,
                               const PathLaunch& launch, PathName name, int window) {
  State& s = *state_;
  TakenPath taken;
  Measurement row = s.time_and_check(
      variant, role, [&] { taken(launch(s.ops.a(), s.ops.b_t(), s.c.view())); }, s.ops.a_widened(),
      s.ops.b_widened(), s.ops.a_widened_host(), s.ops.b_widened_host(), window);
  taken.add_labelled(report, row, name);
}

void Fp8GemmBench::run_block_scaled(Report& report, const std::string& variant, Role role,
                                    const BlockLaunch& launch, PathName name, int window) {
  State& s = *state_;
  BlockFp8Operands& ops = s.block();
  TakenPath taken;
  Measurement row = s.time_and_check(
      variant, role,
      [&] {
        taken(launch({ops.a(), ops.a_dequantize()}, {ops.b_t(), ops.b_dequantize()}, s.c.view()));
      },
      ops.a_widened(), ops.b_widened(), ops.a_widened_host(), ops.b_widened_host(), window);
  taken.add_labelled(report, row, name);
  s.per_block_row = report.measurements().back();
}

void Fp8GemmBench::run_from_float(Report& report, const std::string& variant, Role role,
                                  const FloatLaunch& launch, PathName name, int window) {
  State& s = *state_;
  const int m = s.shape.m, n = s.shape.n, k = s.shape.k;
  DeviceMatrixFp8 a_work(m, k, fp8_stride(k));
  DeviceMatrixFp8 b_t_work(n, k, fp8_stride(k));
  DeviceFp8Scale a_scale;
  DeviceFp8Scale b_scale;
  const Fp8Workspace work{a_work.view(), b_t_work.view(), a_scale.get(), b_scale.get()};
  TakenPath taken;
  Measurement row = s.time_and_check(
      variant, role, [&] { taken(launch(s.ops.a_float(), s.ops.b_float(), work, s.c.view())); },
      s.ops.a_widened(), s.ops.b_widened(), s.ops.a_widened_host(), s.ops.b_widened_host(), window);
  taken.add_labelled(report, row, name);
}

void Fp8GemmBench::run_cublaslt(Report& report) {
  State& s = *state_;
  for (const bool fast_accumulation : {false, true}) {
    if (!s.cublaslt.supports(s.ops.a(), s.ops.b_t(), s.c.view(), fast_accumulation)) {
      std::fprintf(stderr, "note: cuBLASLt has no FP8 algorithm for %s: no row for it\n",
                   s.shape.describe().c_str());
      continue;
    }
    report.add(s.time_and_check(
        fast_accumulation ? "cuBLASLt FP8, fast accumulation"
                          : "cuBLASLt FP8 (E4M3, FP32 accumulate)",
        Role::ceiling,
        [&] { s.cublaslt(s.ops.a(), s.ops.b_t(), s.c.view(), fast_accumulation); },
        s.ops.a_widened(), s.ops.b_widened(), s.ops.a_widened_host(), s.ops.b_widened_host(),
        fast_accumulation ? s.shape.k : kCublasLtPromotionWindow));
  }
  s.run_cublaslt_block_scaled(report);
}

void Fp8GemmBench::State::run_cublaslt_block_scaled(Report& report) {
  const std::string refusal = CublasLtFp8::block_scaled_refusal(shape.m, shape.n);
  if (!refusal.empty()) {
    std::fprintf(stderr,
                 "note: cuBLASLt's block-scaled FP8 ceiling is not available for %s: %s; no "
                 "row for it\n",
                 shape.describe().c_str(), refusal.c_str());
    return;
  }
  BlockFp8Operands& per_block = block();
  if (!cublaslt_factors) {
    cublaslt_factors =
        std::make_unique<CublasLtBlockFactors>(per_block.a_dequantize(), per_block.b_dequantize());
  }
  const CublasLtBlockFactors& factors = *cublaslt_factors;
  if (!cublaslt.supports_block_scaled(per_block.a(), per_block.b_t(), factors, c.view())) {
    // Every rule the documentation states holds (block_scaled_refusal, and the call's own
    // configuration: TN, FP32 compute, scale type and D, no fast accumulation, the factors
    // 16-byte aligned in its layouts): a refusal to look into, not a shape to leave out.
    std::fprintf(stderr,
                 "note: cuBLASLt's heuristic has no block-scaled FP8 algorithm for %s although "
                 "the documented requirements hold: no row for it (a configuration to look "
                 "into)\n",
                 shape.describe().c_str());
    return;
  }
  Measurement row = time_and_check(
      kCublasLtBlockScaled, Role::ceiling,
      [&] { cublaslt.block_scaled(per_block.a(), per_block.b_t(), factors, c.view()); },
      per_block.a_widened(), per_block.b_widened(), per_block.a_widened_host(),
      per_block.b_widened_host(), kCublasLtPromotionWindow);
  report.add(row);
  block_ceiling_row = row;
}

void Fp8GemmBench::print_block_scaled_share() const {
  const State& s = *state_;
  if (!s.per_block_row || !s.block_ceiling_row) return;
  std::fprintf(s.options.csv ? stderr : stdout, "%s: %.1f%% of %s in the same run\n",
               s.per_block_row->variant.c_str(),
               100.0 * s.per_block_row->rate() / s.block_ceiling_row->rate(),
               s.block_ceiling_row->variant.c_str());
}

void Fp8GemmBench::run_quantisation(Report& report) {
  State& s = *state_;
  const int k = s.shape.k, n = s.shape.n;
  const double elements = static_cast<double>(k) * n;
  const Matrix b = s.ops.b_float();
  DeviceMatrixFp8 same_layout(k, n, fp8_stride(n));
  DeviceMatrixFp8 b_t(n, k, fp8_stride(k));
  DeviceMatrix copy(k, n);
  DeviceFp8Scale scale;
  // The host's scale and quantisation, which every row is checked against.
  const float factor = e4m3_scale(largest_magnitude(s.b_host.view()));
  HostMatrixFp8 want(k, n);
  quantize_e4m3(s.b_host.view(), factor, want.view());
  HostMatrixFp8 want_t = transposed(want.view());
  auto time = [&](const std::string& variant, Role role, double bytes,
                  const std::function<void()>& work, const std::function<void()>& poison) {
    Measurement row;
    row.variant = variant;
    row.role = role;
    row.unit = "GB/s";
    row.work = bytes;
    row.l2 = s.options.l2;
    row.timing = measure_gpu(s.options.repeats, work, [&] {
      poison();
      if (s.l2_flush) (*s.l2_flush)();
    });
    return row;
  };
  Measurement memcpy_row = time(
      "cudaMemcpy of B's floats", Role::ceiling, 8.0 * elements,
      [&] {
        CUDA_CHECK(
            cudaMemcpyAsync(copy.view().data, b.data, bytes_of(b), cudaMemcpyDeviceToDevice));
      },
      [&] { copy.poison(); });
  report.add(memcpy_row);
  Measurement scale_row = time(
      "B's scale (largest |x|, reads B)", Role::stage, 4.0 * elements,
      [&] { s.quantizers.scale(b, scale.get()); }, [] {});
  scale_row.check.checked = 1;
  scale_row.check.ok = scale.download().quantize == factor;
  report.add(scale_row);
  Measurement same_row = time(
      "B into E4M3, same layout", Role::stage, 5.0 * elements,
      [&] { s.quantizers.same_layout(b, scale.get(), same_layout.view()); },
      [&] { same_layout.poison(); });
  HostMatrixFp8 got(k, n);
  same_layout.download(got.view());
  same_row.check = check_codes(got.view(), want.view());
  report.add(same_row);
  Measurement transposed_row = time(
      "B into E4M3 B^T (transposing)", Role::stage, 5.0 * elements,
      [&] { s.quantizers.transposed(b, scale.get(), b_t.view()); }, [&] { b_t.poison(); });
  HostMatrixFp8 got_t(n, k);
  b_t.download(got_t.view());
  transposed_row.check = check_codes(got_t.view(), want_t.view());
  report.add(transposed_row);
}

}  // namespace ladder
