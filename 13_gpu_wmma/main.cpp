// Stage 13: tensor cores through WMMA, timed against stage 12 (FP32, CUDA cores, on the same
// rounded inputs) and cuBLAS with BF16 operands in the same run.
//   cmake --preset native && cmake --build --preset native --target 13_gpu_wmma
//   build-native/bin/13_gpu_wmma --help
#include <string>

#include "13_gpu_wmma/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("13_gpu_wmma", "tensor cores through WMMA: BF16 operands, FP32 accumulate");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_bf16_tensor_cores();

  ladder::Report report("13_gpu_wmma", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  const auto stage12 = ladder::baseline::pipelined(shape.m, shape.n);
  bench.run_float(report, stage12.label, ladder::Role::baseline, stage12.launch);
  for (const std::string& name : ladder::wmma_configs()) {
    bench.run_on_path(
        report, "wmma " + name, ladder::Role::stage,
        [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_wmma(name, a, b, c);
        },
        ladder::path_name);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("13_gpu_wmma", stage_main, argc, argv);
}
