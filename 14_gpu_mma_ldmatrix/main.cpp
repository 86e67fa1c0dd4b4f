// Stage 14: mma.sync fed by ldmatrix from swizzled shared slices, timed against stage 13 and
// cuBLAS with BF16 operands in the same run. --swizzle both adds the unswizzled layout: the
// bank conflicts the swizzle removes, as time.
//   cmake --preset native && cmake --build --preset native --target 14_gpu_mma_ldmatrix
//   build-native/bin/14_gpu_mma_ldmatrix --help
#include <string>

#include "14_gpu_mma_ldmatrix/kernel.hpp"
#include "common/baselines.hpp"
#include "common/harness/program.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/tensor_cores.hpp"

namespace {

using ladder::Matrix;
using ladder::MatrixBf16;

int stage_main(int argc, char** argv) {
  ladder::Cli cli("14_gpu_mma_ldmatrix",
                  "mma.sync m16n8k16 fed by ldmatrix from XOR-swizzled shared slices");
  ladder::GemmShape shape;
  ladder::RunOptions options = ladder::gpu_run_defaults();
  std::string swizzle = "on";
  ladder::add_gemm_shape(cli, shape);
  ladder::add_run_options(cli, options);
  cli.add_choice("--swizzle", &swizzle, {"on", "off", "both"},
                 "the shared layout: swizzled chunks, plain rows (the bank conflicts), or both");
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const std::string device = ladder::require_gpu();
  ladder::require_bf16_tensor_cores();

  ladder::Report report("14_gpu_mma_ldmatrix", shape.describe(), device);
  ladder::TensorGemmBench bench(shape, options);
  const auto stage13 = ladder::baseline::wmma();
  bench.run(report, stage13.label, ladder::Role::baseline, stage13.launch);
  // --swizzle on runs the default layout ("swizzled"), off the other ("unswizzled").
  const std::string chosen = swizzle == "on" ? "swizzled" : "unswizzled";
  for (const std::string& name : ladder::mma_configs()) {
    if (swizzle != "both" && name != chosen) continue;
    bench.run_on_path(
        report, "mma.sync 128x128x64 w64x32, " + name, ladder::Role::stage,
        [name](MatrixBf16 a, MatrixBf16 b, Matrix c) {
          return ladder::launch_gemm_mma(name, a, b, c);
        },
        ladder::path_name);
  }
  bench.run_cublas(report);
  return report.print(options.csv);
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("14_gpu_mma_ldmatrix", stage_main, argc, argv);
}
