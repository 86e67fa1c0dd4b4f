// The ceiling of the mma.sync stages on this GPU: how many BF16 FLOP/s mma.sync m16n8k16
// reaches when nothing else runs. Every warp issues independent mma.sync on operands already in
// registers (no memory traffic at all), with 4 to 32 warps per SM. On Hopper this is well below
// the BF16 dense peak, which only wgmma reaches (the Hopper stages): no kernel built on mma.sync
// can pass it.
//   cmake --build --preset native --target mma_peak
//   build-native/bin/mma_peak --help
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "common/sm80/mma_tile.cuh"
#include "common/cuda_check.hpp"
#include "common/device_probe.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/program.hpp"
#include "common/tensor_cores.hpp"

namespace {

// Chains independent accumulators per warp, so a product never waits for the one before it.
constexpr int kChains = 8;
constexpr double kFlopPerMma = 2.0 * 16 * 8 * 16;

__global__ void mma_only(int iterations, float* sink) {
  // Small finite BF16 pairs that differ per lane. Few bits toggle between them, and tensor
  // cores draw less power on such data, so if anything this overstates the ceiling.
  std::uint32_t a[4];
  for (int i = 0; i < 4; ++i) a[i] = (threadIdx.x * (2u * i + 1u)) & 0x3f803f80u;
  float acc[kChains][4] = {};
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) ladder::mma::mma_16816(acc[c], a, a[0], a[1]);
  }
  float sum = 0;
  for (const auto& chain : acc) {
    for (const float v : chain) sum += v;
  }
  if (sum == 12345.0f) *sink = sum;  // never true; keeps the products alive
}

int stage_main(int argc, char** argv) {
  ladder::Cli cli("mma_peak",
                  "the BF16 rate of mma.sync m16n8k16 alone (operands in registers, no memory), "
                  "4 to 32 warps per SM: the ceiling of the mma.sync stages");
  int iterations = 4096;
  ladder::Repeats repeats{2, 20};
  cli.add_int("--iterations", &iterations, "mma.sync rounds per warp", 1, 1 << 20);
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const auto device = ladder::require_device();
  ladder::require_bf16_tensor_cores();
  float* sink = nullptr;
  CUDA_CHECK(cudaMalloc(&sink, sizeof(float)));
  std::printf("%s\n%d independent mma.sync per warp per round, %d rounds, median of %d runs\n\n"
              "| warps per SM | TFLOP/s | %% of BF16 peak |\n|---|---|---|\n",
              device.describe().c_str(), kChains, iterations, repeats.timed);
  for (const int warps : {4, 8, 16, 32}) {
    const int threads = warps >= 8 ? 256 : warps * 32;
    const int blocks = device.multiprocessors * warps * 32 / threads;
    const ladder::Timing timing = ladder::measure_gpu(
        repeats,
        [&] {
          mma_only<<<blocks, threads>>>(iterations, sink);
          CUDA_CHECK_LAUNCH();
        },
        [] {});
    const double flop = kFlopPerMma * kChains * iterations * (blocks * threads / 32.0);
    const double tflops = flop / (timing.median_ms * 1e-3) / 1e12;
    if (device.bf16_peak_gflops > 0) {
      std::printf("| %d | %.1f | %.1f%% |\n", warps, tflops,
                  100.0 * tflops * 1e3 / device.bf16_peak_gflops);
    } else {
      std::printf("| %d | %.1f | unknown |\n", warps, tflops);
    }
  }
  CUDA_CHECK(cudaFree(sink));
  return ladder::kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return ladder::run_program("mma_peak", stage_main, argc, argv); }
