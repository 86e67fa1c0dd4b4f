// How close the tensor cores come to Part 4's error bound. For each kernel of the table, over
// many shapes and four families of inputs, the worst ratio of |c - reference| to the bound
// tensor_gemm_gamma(K) * sum_k |a_ik b_kj| (K * 2^-22 per unit of magnitude; the reason is in
// common/harness/verify.hpp), and of the same error to the FP32 stages' bound gemm_gamma(K):
// whether the tensor cores also stay inside the bound of Parts 1-3. The reference is computed
// in double from the inputs rounded to BF16, so every product in it is exact. Exit 0 only when
// every ratio to the tensor bound is at most 1; 77 without a GPU with BF16 tensor cores.
// The Hopper stages (wgmma, sm_90a code) are measured on a GPU of compute capability 9.0 only.
// Not a stage: it times nothing.
//   cmake --preset native && cmake --build --preset native --target tensor_error_study
//   build-native/bin/tensor_error_study [--quick]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "13_gpu_wmma/kernel.hpp"
#include "14_gpu_mma_ldmatrix/kernel.hpp"
#include "15_gpu_mma_pipelined/kernel.hpp"
#include "16_gpu_tma_wgmma/kernel.hpp"
#include "17_gpu_warp_specialized/kernel.hpp"
#include "18_gpu_persistent/kernel.hpp"
#include "19_gpu_clusters/kernel.hpp"
#include "common/device_probe.hpp"
#include "common/errors.hpp"
#include "common/harness/cublas_gemm.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/program.hpp"
#include "common/harness/program.hpp"
#include "common/harness/bf16_operand.hpp"
#include "common/harness/tensor_gemm_bench.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"
#include "common/tensor_cores.hpp"
#include "tests/error_study.hpp"
#include "tests/test_support.hpp"

namespace {

using namespace ladder;

struct Kernel {
  std::string name;
  TensorGemmBench::Launch launch;
};

// Every BF16 matrix product to measure: cuBLAS, then the Part 4 stages, the Hopper ones (wgmma:
// a summation of its own to measure) where the GPU runs them. Their TMA path needs rows of whole
// 16-byte chunks: on shapes whose K or N is not a multiple of 8 they run stage 15's kernel.
std::vector<Kernel> kernels(CublasGemm& cublas, bool hopper) {
  std::vector<Kernel> all = {
      {"cuBLAS BF16 (FP32 accumulate)",
       [&cublas](MatrixBf16 a, MatrixBf16 b, Matrix c) { cublas(a, b, c); }},
      {"13 wmma",
       [](MatrixBf16 a, MatrixBf16 b, Matrix c) {
         launch_gemm_wmma(wmma_configs().front(), a, b, c);
       }},
      {"14 mma.sync",
       [](MatrixBf16 a, MatrixBf16 b, Matrix c) {
         launch_gemm_mma(mma_configs().front(), a, b, c);
       }},
      {"15 mma.sync pipelined",
       [](MatrixBf16 a, MatrixBf16 b, Matrix c) {
         launch_gemm_mma_pipelined(mma_pipelined_configs().front(), a, b, c);
       }},
  };
  if (hopper) {
    all.push_back({"16 TMA + wgmma", [](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                     launch_gemm_tma_wgmma(tma_wgmma_configs().front(), a, b, c);
                   }});
    all.push_back({"17 warp-specialized", [](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                     launch_gemm_warp_specialized(warp_specialized_configs().front(), a, b, c);
                   }});
    all.push_back({"18 persistent", [](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                     launch_gemm_persistent(persistent_configs().front(), a, b, c);
                   }});
    all.push_back({"19 clusters", [](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                     launch_gemm_clusters(cluster_configs().front(), a, b, c);
                   }});
  }
  return all;
}

// K around the tensor cores' block sizes and the stages' tiles, up to 8192; M x N odd and even.
std::vector<test::GemmCase> shapes(bool quick) {
  const std::vector<int> depths =
      quick ? std::vector<int>{1, 15, 16, 17, 33, 256}
            : std::vector<int>{1,   2,   3,   7,    8,    15,   16,   17,   31,
                               32,  33,  63,  64,   65,   127,  128,  255,  256,
                               1023, 1024, 2047, 4095, 4096, 8191, 8192};
  const std::vector<std::pair<int, int>> sizes =
      quick ? std::vector<std::pair<int, int>>{{33, 17}, {16, 16}}
            : std::vector<std::pair<int, int>>{{33, 17}, {64, 64}, {127, 130}};
  std::vector<test::GemmCase> all;
  for (const auto& [m, n] : sizes)
    for (const int k : depths) all.push_back(test::GemmCase{m, n, k});
  return all;
}

// The worst element of one kernel on one family, over every shape.
struct Worst {
  double ratio = 0;  // error / tensor bound
  test::GemmCase shape{0, 0, 0};
  bool ok = true;
};


int study_main(int argc, char** argv) {
  Cli cli("tensor_error_study",
          "the worst error of each BF16 matrix product against the tensor-core bound "
          "K * 2^-22 * sum_k |a_ik b_kj|, over many shapes and input families");
  bool quick = false;
  std::uint64_t seed = 0;
  cli.add_flag("--quick", &quick, "a few shapes only (K up to 256), for the tests");
  cli.add_seed("--seed", &seed, "seed of the random inputs");
  if (!cli.parse(argc, argv)) return kExitOk;
  const DeviceInfo device = require_device();
  require_bf16_tensor_cores();

  std::string no_hopper;  // why the Hopper stages are left out, or ""
  try {
    require_hopper();
  } catch (const UnsupportedGpuError& e) {
    no_hopper = e.what();
  }

  CublasGemm cublas;
  const std::vector<Kernel> measured = kernels(cublas, no_hopper.empty());
  const std::vector<test::GemmCase> all_shapes = shapes(quick);
  std::vector<std::vector<Worst>> worst(measured.size(),
                                        std::vector<Worst>(std::size(test::kInputFamilies)));
  std::uint64_t inputs_seed = seed;
  for (std::size_t family = 0; family < std::size(test::kInputFamilies); ++family) {
    for (const test::GemmCase& shape : all_shapes) {
      HostMatrix a_values(shape.m, shape.k);
      HostMatrix b_values(shape.k, shape.n);
      test::kInputFamilies[family].make(a_values, b_values, inputs_seed);
      inputs_seed += 2;
      Bf16Operand a(std::move(a_values));
      Bf16Operand b(std::move(b_values));
      DeviceMatrix c(shape.m, shape.n);
      for (std::size_t kernel = 0; kernel < measured.size(); ++kernel) {
        c.poison();
        measured[kernel].launch(a.rounded(), b.rounded(), c.view());
        const CheckResult check = check_gemm_on_device(
            a.widened(), b.widened(), c.view(), a.widened_host(), b.widened_host(),
            tensor_gemm_gamma(shape.k));
        Worst& so_far = worst[kernel][family];
        const double ratio = test::ratio_to_bound(check);
        if (!check.ok) so_far.ok = false;
        if (ratio >= so_far.ratio) {
          so_far.ratio = ratio;
          so_far.shape = shape;
        }
      }
    }
  }

  std::printf("tensor_error_study: %s\n", device.describe().c_str());
  std::printf("error / bound at the worst element of every shape (M x N x K), K from %d to %d; "
              "tensor bound K * 2^-22 * sum_k |a_ik b_kj|, FP32 bound half of it\n",
              all_shapes.front().k, all_shapes.back().k);
  if (!no_hopper.empty()) std::printf("the Hopper stages left out: %s\n", no_hopper.c_str());
  std::printf("%-30s  %-20s  %6s  %14s  %14s  %s\n", "kernel", "family", "shapes",
              "worst / tensor", "worst / FP32", "worst at");
  bool all_within = true;
  for (std::size_t kernel = 0; kernel < measured.size(); ++kernel) {
    for (std::size_t family = 0; family < std::size(test::kInputFamilies); ++family) {
      const Worst& w = worst[kernel][family];
      const int k = w.shape.k;
      const double to_fp32 = w.ratio * tensor_gemm_gamma(k) / gemm_gamma(k);
      std::printf("%-30s  %-20s  %6zu  %14.4f  %14.4f  %s\n", measured[kernel].name.c_str(),
                  test::kInputFamilies[family].name, all_shapes.size(), w.ratio, to_fp32,
                  test::describe(w.shape).c_str());
      all_within = all_within && w.ok && w.ratio <= 1;
    }
  }
  if (!all_within) {
    std::printf("FAILED: an error exceeds the tensor-core bound\n");
    return kExitFailure;
  }
  std::printf("ok: every error within the tensor-core bound\n");
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return run_program("tensor_error_study", study_main, argc, argv);
}
