// How accurate stage 22's FP8 products are, in three tables.
//  1. The bound: for each kernel, over many shapes and the four input families of the BF16
//     study (error_study.hpp), the worst ratio of |c - reference| to fp8_gemm_gamma(K, its
//     promotion window) * sum_k |a_ik b_kj|. The reference is computed in double from the values
//     the E4M3 operands stand for, so every product in it is exact: the ratio measures the
//     summation alone. Exit 0 only when stage 22's promoting variants stay within it.
//  2. Promotion: the worst error per unit of magnitude at K = 1,024 to 16,384, with the tensor
//     cores' partial sums promoted every 128, 256 or 512 products, or never.
//  3. Scaling: per tensor against per block (1 x 128 of A, 128 x 128 of B), on inputs with an
//     outlier row, against the product of the FP32 inputs themselves (quantisation included).
// cuBLASLt FP8 is measured beside them. 77 without a Hopper GPU. Not a stage: it times nothing.
//   cmake --preset native && cmake --build --preset native --target fp8_error_study
//   build-native/bin/fp8_error_study [--quick]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "22_gpu_fp8/kernel.hpp"
#include "22_gpu_fp8/quantize.hpp"
#include "common/device_matrix.hpp"
#include "common/device_probe.hpp"
#include "common/errors.hpp"
#include "common/harness/cublaslt_fp8.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/fp8_gemm_bench.hpp"
#include "common/harness/fp8_operands.hpp"
#include "common/harness/program.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"
#include "common/tensor_cores.hpp"
#include "tests/error_study.hpp"
#include "tests/test_support.hpp"

namespace {

using namespace ladder;

// Stage 22's quantisation on the device, which Fp8Operands runs.
const Fp8Quantizers kQuantizers{e4m3_scale_on_device, quantize_e4m3, quantize_e4m3_transposed};

// A per-tensor product: every variant of stage 22 (each tiling, whole and divided, and the
// promotion's ablations) and cuBLASLt. window(k): the products summed between promotions, for
// the bound (cuBLASLt's is not documented: 128 is assumed, as DeepSeek-V3 and CUTLASS promote);
// bounded: whether the exit code holds it to the bound;
// available: whether it has an algorithm for these operands (cuBLASLt refuses some shapes).
struct Kernel {
  std::string name;
  std::function<void(ScaledFp8 a, ScaledFp8 b_t, Matrix c)> launch;
  std::function<int(int k)> window;
  bool bounded;
  std::function<bool(ScaledFp8 a, ScaledFp8 b_t, Matrix c)> available;
};

std::vector<Kernel> kernels(CublasLtFp8& cublaslt, const StreamKWorkspace& workspace) {
  std::vector<Kernel> all;
  for (const std::string& name : fp8_configs()) {
    all.push_back({"22 " + name,
                   [name, &workspace](ScaledFp8 a, ScaledFp8 b_t, Matrix c) {
                     launch_gemm_fp8(name, a, b_t, c, workspace);
                   },
                   [name](int k) { return fp8_promotion_window(name, k); },
                   fp8_promotion_window(name, 1 << 30) < (1 << 30),
                   [](ScaledFp8, ScaledFp8, Matrix) { return true; }});
  }
  for (const bool fast : {false, true}) {
    all.push_back(
        {fast ? "cuBLASLt FP8 fast accumulation" : "cuBLASLt FP8",
         [&cublaslt, fast](ScaledFp8 a, ScaledFp8 b_t, Matrix c) { cublaslt(a, b_t, c, fast); },
         [fast](int k) { return fast ? k : kFp8ScaleBlock; }, false,
         [&cublaslt, fast](ScaledFp8 a, ScaledFp8 b_t, Matrix c) {
           return cublaslt.supports(a, b_t, c, fast);
         }});
  }
  return all;
}

// The worst ratio over the shapes of one family, and where.
struct Worst {
  double ratio = 0;
  test::GemmCase shape{0, 0, 0};
};

// Runs `kernel` on the per-tensor operands into c; the worst ratio to gamma's bound.
double measure(const Kernel& kernel, Fp8Operands& ops, DeviceMatrix& c, double gamma) {
  if (!kernel.available(ops.a(), ops.b_t(), c.view())) return -1;
  c.poison();
  kernel.launch(ops.a(), ops.b_t(), c.view());
  return test::ratio_to_bound(check_gemm_on_device(ops.a_widened(), ops.b_widened(), c.view(),
                                                   ops.a_widened_host(), ops.b_widened_host(),
                                                   gamma));
}

// Table 1: every kernel, every family, the worst over the shapes.
bool bound_table(const std::vector<Kernel>& measured, bool quick, std::uint64_t& seed) {
  const std::vector<int> depths =
      quick ? std::vector<int>{1, 33, 128, 129, 1024}
            : std::vector<int>{1,   31,   32,   33,   127,  128,  129,  255,
                               256, 1023, 1024, 4096, 8191, 8192, 16384};
  const std::vector<std::pair<int, int>> sizes =
      quick ? std::vector<std::pair<int, int>>{{64, 48}}
            : std::vector<std::pair<int, int>>{{64, 48}, {128, 256}, {127, 130}};
  std::printf(
      "\n1. error / fp8_gemm_gamma(K, window) at the worst element, %zu shapes "
      "(M x N in",
      depths.size() * sizes.size());
  for (const auto& [m, n] : sizes) std::printf(" %dx%d", m, n);
  std::printf("; K %d to %d)\n%-36s  %-20s  %12s  %s\n", depths.front(), depths.back(), "kernel",
              "family", "worst", "at");
  std::vector<std::vector<Worst>> worst(measured.size(),
                                        std::vector<Worst>(std::size(test::kInputFamilies)));
  for (std::size_t family = 0; family < std::size(test::kInputFamilies); ++family) {
    for (const auto& [m, n] : sizes) {
      for (const int k : depths) {
        HostMatrix a(m, k);
        HostMatrix b(k, n);
        test::kInputFamilies[family].make(a, b, seed);
        seed += 2;
        Fp8Operands ops(a.view(), b.view(), kQuantizers);
        DeviceMatrix c(m, n);
        for (std::size_t i = 0; i < measured.size(); ++i) {
          const double gamma = fp8_gemm_gamma(k, measured[i].window(k));
          const double ratio = measure(measured[i], ops, c, gamma);
          if (ratio >= worst[i][family].ratio) worst[i][family] = {ratio, test::GemmCase{m, n, k}};
        }
      }
    }
  }
  bool within = true;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    for (std::size_t family = 0; family < std::size(test::kInputFamilies); ++family) {
      const Worst& w = worst[i][family];
      std::printf("%-36s  %-20s  %12.5f  %s\n", measured[i].name.c_str(),
                  test::kInputFamilies[family].name, w.ratio, test::describe(w.shape).c_str());
      if (measured[i].bounded && !(w.ratio <= 1)) within = false;
    }
  }
  return within;
}

// Table 2: the worst error per unit of magnitude (ratio x gamma) against K, for two families.
void promotion_table(const std::vector<Kernel>& measured, bool quick, std::uint64_t& seed) {
  const std::vector<int> depths =
      quick ? std::vector<int>{1024, 4096} : std::vector<int>{1024, 2048, 4096, 8192, 16384};
  const int size = quick ? 64 : 256;
  for (std::size_t family = 0; family < 2; ++family) {  // uniform, all positive
    std::printf("\n2. worst |c - reference| / sum_k |a_ik b_kj|, %s, M = N = %d\n%-36s",
                test::kInputFamilies[family].name, size, "kernel \\ K");
    for (const int k : depths) std::printf("  %10d", k);
    std::printf("\n");
    std::vector<std::vector<double>> table(measured.size());
    for (const int k : depths) {
      HostMatrix a(size, k);
      HostMatrix b(k, size);
      test::kInputFamilies[family].make(a, b, seed);
      seed += 2;
      Fp8Operands ops(a.view(), b.view(), kQuantizers);
      DeviceMatrix c(size, size);
      for (std::size_t i = 0; i < measured.size(); ++i) {
        table[i].push_back(measure(measured[i], ops, c, 1.0));
      }
    }
    for (std::size_t i = 0; i < measured.size(); ++i) {
      std::printf("%-36s", measured[i].name.c_str());
      for (const double e : table[i]) std::printf("  %10.3e", e);
      std::printf("\n");
    }
  }
}

// Table 3: per tensor against per block, on uniform inputs in [-1, 1) of which one row of A
// (an outlier token, as in a model's activations) is `outlier` times larger, measured on the
// other rows of C against the product of the FP32 inputs themselves: what quantising with
// the outlier's scale costs the rest. Per tensor, the outlier sets A's one scale and the other
// rows fall among E4M3's smallest values (below 2^-6 they lose bits, below 2^-10 they become
// zero); per block (1 x 128 of A), each row has its own.
void scaling_table(bool quick, std::uint64_t& seed, const StreamKWorkspace& workspace) {
  const int m = quick ? 64 : 512, n = quick ? 64 : 512, k = quick ? 256 : 4096;
  std::printf(
      "\n3. worst |c - A B| / sum_k |a_ik b_kj| over the rows of C but the outlier's, "
      "against the FP32 inputs (quantisation included), %dx%dx%d, row 0 of A times the "
      "outlier\n%-12s  %14s  %14s\n",
      m, n, k, "outlier", "per tensor", "per block");
  for (const float outlier : {1.0f, 1e2f, 1e3f, 1e4f, 1e5f}) {
    HostMatrix a(m, k);
    HostMatrix b(k, n);
    test::uniform(a, b, seed);
    seed += 2;
    for (int col = 0; col < k; ++col) a.set(0, col, a.get(0, col) * outlier);
    Fp8Operands tensor(a.view(), b.view(), kQuantizers);
    BlockFp8Operands blocks(a.view(), b.view());
    DeviceMatrix c(m, n);
    // Rows 1.. of A and of C: the rows the outlier does not enter.
    const Matrix a_rest = a.view().sub(1, 0, m - 1, k);
    DeviceMatrix a_rest_device(m - 1, k);
    a_rest_device.upload(a_rest);
    auto error = [&] {
      return test::ratio_to_bound(check_gemm_on_device(a_rest_device.view(), tensor.b_float(),
                                                       c.view().sub(1, 0, m - 1, n), a_rest,
                                                       b.view(), 1.0));
    };
    c.poison();
    launch_gemm_fp8(fp8_configs().front(), tensor.a(), tensor.b_t(), c.view(), workspace);
    const double per_tensor = error();
    c.poison();
    launch_gemm_fp8_block_scaled({blocks.a(), blocks.a_dequantize()},
                                 {blocks.b_t(), blocks.b_dequantize()}, c.view(), workspace);
    const double per_block = error();
    std::printf("%-12g  %14.3e  %14.3e\n", outlier, per_tensor, per_block);
  }
}

int study_main(int argc, char** argv) {
  Cli cli("fp8_error_study",
          "the worst error of stage 22's FP8 products against their bound, with and without "
          "promotion, and with per-tensor or per-block scales on inputs with outliers");
  bool quick = false;
  std::uint64_t seed = 0;
  cli.add_flag("--quick", &quick, "a few shapes only, for the tests");
  cli.add_seed("--seed", &seed, "seed of the random inputs");
  if (!cli.parse(argc, argv)) return kExitOk;
  const DeviceInfo device = require_device();
  require_hopper();
  std::printf("fp8_error_study: %s\n", device.describe().c_str());
  CublasLtFp8 cublaslt;
  const StreamKWorkspace workspace;  // the divided variants' partial tiles
  const std::vector<Kernel> measured = kernels(cublaslt, workspace);
  const bool within = bound_table(measured, quick, seed);
  promotion_table(measured, quick, seed);
  scaling_table(quick, seed, workspace);
  std::printf("(-1: cuBLASLt has no algorithm for the shape)\n");
  if (!within) {
    std::printf("FAILED: a promoting stage 22 variant exceeds its bound\n");
    return kExitFailure;
  }
  std::printf("ok: every promoting stage 22 variant within its bound\n");
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return run_program("fp8_error_study", study_main, argc, argv); }
