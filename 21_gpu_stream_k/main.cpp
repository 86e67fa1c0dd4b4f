// Stage 21: stage 19's kernel walking parts of tiles, so that the work fills the GPU when the
// tiles do not come in whole waves: split-K, Stream-K, narrower tiles, and a rule that picks
// among them per shape. Timed against stage 19's default and cuBLAS BF16 in the same run.
// --config all runs every variant: the rule's evidence (scripts/shapes.py). sm_90a only: every
// other GPU exits 77.
//   cmake --preset native && cmake --build --preset native --target 21_gpu_stream_k
//   build-native/bin/21_gpu_stream_k --help
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/hopper/launch.hpp"  // tma_path_name
#include "21_gpu_stream_k/kernel.hpp"
#include "common/baselines.hpp"
#include "common/device_matrix_bf16.hpp"
#include "common/device_memory.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

// Whether every row of m starts on a 128-byte line: a TMA box row of 128 bytes is then four
// 32-byte sectors, not five (stage 16's ROW_ALIGNMENT.md).
bool rows_on_lines(const MatrixBf16& m) {
  return m.stride * sizeof(ladder::bf16) % 128 == 0 &&
         reinterpret_cast<std::uintptr_t>(m.data) % 128 == 0;
}

// The variant `name` after copying A, B or both into rows of whole 128-byte lines inside the
// timed call: the copy's cost against the faster loads.
void run_aligned_copies(ladder::TensorGemmBench& bench, const ladder::GemmShape& shape,
                        const std::string& name, const ladder::StreamKWorkspace& workspace,
                        ladder::Report& report) {
  const int a_stride = (shape.k + 63) / 64 * 64;
  const int b_stride = (shape.n + 63) / 64 * 64;
  ladder::require_device_memory(
      shape.describe() + " (copies of A and B in 128-byte rows)",
      sizeof(ladder::bf16) * (static_cast<std::uint64_t>(shape.m) * a_stride +
                              static_cast<std::uint64_t>(shape.k) * b_stride));
  ladder::DeviceMatrixBf16 a_lines(shape.m, shape.k, a_stride);
  ladder::DeviceMatrixBf16 b_lines(shape.k, shape.n, b_stride);
  for (const int copies : {1, 2, 3}) {  // bit 0: A, bit 1: B
    const bool copy_a = copies & 1;
    const bool copy_b = copies & 2;
    const std::string what = copies == 3 ? "A and B" : copy_a ? "A" : "B";
    bench.run(report, name + ", " + what + " copied to 128-byte rows in the call",
              ladder::Role::stage, [&, name, copy_a, copy_b](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                if (copy_a) ladder::copy_2d(a_lines.view(), a, cudaMemcpyDeviceToDevice);
                if (copy_b) ladder::copy_2d(b_lines.view(), b, cudaMemcpyDeviceToDevice);
                ladder::launch_gemm_stream_k(name, copy_a ? a_lines.view() : a,
                                             copy_b ? b_lines.view() : b, c, workspace);
              });
  }
}

int stage_main(int argc, char** argv) {
  ladder::Cli cli("21_gpu_stream_k",
                  "stage 19's kernel over parts of tiles: split-K, Stream-K and narrower tiles, "
                  "picked per shape");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::string config;
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  ladder::add_config_choice(
      cli, &config, ladder::stream_k_configs(),
      "the variant: by_shape (the default: the model's pick), or a tiling and a division (dp, split, "
      "stream); all runs every one");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_hopper();

  ladder::Report report("21_gpu_stream_k", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  ladder::require_device_memory(shape.describe() + " (stage 21's workspace)",
                                ladder::StreamKWorkspace::bytes_needed());
  const ladder::StreamKWorkspace workspace;
  const auto stage19 = ladder::baseline::clusters();
  bench.run(report, stage19.label, ladder::Role::baseline, stage19.launch);
  const std::vector<std::string> configs = ladder::stream_k_configs();
  ladder::OperandPath path = ladder::OperandPath::element;
  for (const std::string& name : configs) {
    if (!ladder::config_selected(config, name)) continue;
    path = bench.run_on_path(
        report, name, ladder::Role::stage,
        [name, &workspace](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_stream_k(name, a, b, c, workspace);
        },
        ladder::tma_path_name);
  }
  // The default alone on the TMA path, where A's or B's rows start off the 128-byte lines:
  // --config all is the rule's evidence, where a copy is no choice.
  if (config == configs.front() && path == ladder::OperandPath::tma &&
      (!rows_on_lines(bench.a()) || !rows_on_lines(bench.b()))) {
    run_aligned_copies(bench, shape, config, workspace, report);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("21_gpu_stream_k", stage_main, argc, argv);
}
