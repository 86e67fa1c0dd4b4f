// The load patterns of the FP32 shared-memory stages, one warp-wide load at a time. Each
// pattern runs as its own kernel, so Nsight Compute can count how many wavefronts (passes of
// the shared-memory data path, each at most one 4-byte word from each of the 32 banks) one
// load instruction takes. The program prints what the simple bank model predicts: the number
// of distinct words the warp reads from its busiest bank. scripts/smem_patterns.py runs it
// under Nsight Compute and puts the measured count beside the prediction.
//   cmake --build --preset native --target smem_patterns
//   build-native/bin/smem_patterns --help
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_probe.hpp"
#include "common/harness/program.hpp"

namespace {

struct Pattern {
  const char* name;   // what reads this way
  int width;          // floats per lane: 1 (LDS.32), 2 (LDS.64), 4 (LDS.128)
  // Lane -> first word (in floats): (lane / group) * group_step + (lane % group) * step.
  int group;
  int group_step;
  int step;
};

// Word offsets are in floats. A row of 32 floats covers the 32 banks once.
const Pattern kPatterns[] = {
    {"LDS.32 consecutive (04 B row, 07/08 row reads)", 1, 32, 0, 1},
    {"LDS.32 broadcast (every lane one word)", 1, 32, 0, 0},
    {"LDS.32 two words, 16 lanes each (05 unroll 1: A, tile 16)", 1, 16, 16, 0},
    {"LDS.32 stride 2 words (2-way conflict)", 1, 32, 0, 2},
    {"LDS.32 stride 32 words (07 column, 32-way)", 1, 32, 0, 32},
    {"LDS.32 stride 33 words (08 padded column)", 1, 32, 0, 33},
    {"LDS.32 09 2D A: two words 64 apart", 1, 16, 64, 0},
    {"LDS.32 09 2D B: 16 lanes stride 8", 1, 16, 0, 8},
    {"LDS.64 consecutive", 2, 32, 0, 2},
    {"LDS.128 consecutive (512 bytes)", 4, 32, 0, 4},
    {"LDS.128 broadcast", 4, 32, 0, 0},
    {"LDS.128 10 A: two float4s, 16 lanes each", 4, 16, 8, 0},
    {"LDS.128 10 B: 16 float4s stride 8 words", 4, 16, 0, 8},
    {"LDS.128 11/12 A (w32x64): 4 float4s, 8 lanes each", 4, 8, 4, 0},
    {"LDS.128 11/12 B (w32x64): 8 consecutive float4s", 4, 8, 0, 4},
    {"LDS.128 11 A (w64x32): 8 consecutive float4s, 4 adjacent lanes each", 4, 4, 4, 0},
    {"LDS.128 11 B (w64x32): 4 consecutive float4s, lanes 4 apart share", 4, 4, 0, 4},
};

constexpr int kTileFloats = 8192;   // 32 KB of shared memory per block
constexpr int kRoundWords = 1024;   // each repetition moves by whole rows: same banks

// One shared load of WIDTH floats, as an asm volatile so the compiler neither merges repeated
// loads of the same address nor moves them out of the loop: every repetition is a real LDS.
template <int WIDTH>
__device__ float load_shared(const float* at) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(at));
  float x = 0, y = 0, z = 0, w = 0;
  if constexpr (WIDTH == 1) {
    asm volatile("ld.shared.f32 %0, [%1];" : "=f"(x) : "r"(address));
  } else if constexpr (WIDTH == 2) {
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(x), "=f"(y) : "r"(address));
  } else {
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(x), "=f"(y), "=f"(z), "=f"(w)
                 : "r"(address));
  }
  return (x + y) + (z + w);
}

// Every lane of every warp loads `reps` times with the pattern's addresses. The sum is stored
// so the loads have a use.
template <int WIDTH>
__global__ void smem_pattern(Pattern p, int reps, float* sink) {
  __shared__ __align__(16) float tile[kTileFloats];
  for (int i = threadIdx.x; i < kTileFloats; i += blockDim.x) tile[i] = static_cast<float>(i);
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const int word = lane / p.group * p.group_step + lane % p.group * p.step;
  float sum = 0;
  for (int r = 0; r < reps; ++r) sum += load_shared<WIDTH>(tile + word + r % 4 * kRoundWords);
  sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The simple bank model: a warp's load takes as many wavefronts as there are distinct words
// in its busiest bank (lanes reading the same word share it: a broadcast).
int busiest_bank_words(const Pattern& p) {
  std::vector<std::vector<int>> words_in_bank(32);
  for (int lane = 0; lane < 32; ++lane) {
    const int first = lane / p.group * p.group_step + lane % p.group * p.step;
    for (int w = first; w < first + p.width; ++w) {
      std::vector<int>& bank = words_in_bank[w % 32];
      if (std::find(bank.begin(), bank.end(), w) == bank.end()) bank.push_back(w);
    }
  }
  std::size_t most = 0;
  for (const auto& bank : words_in_bank) most = std::max(most, bank.size());
  return static_cast<int>(most);
}

void launch(const Pattern& p, int blocks, int threads, int reps, float* sink) {
  if (p.width == 1) smem_pattern<1><<<blocks, threads>>>(p, reps, sink);
  if (p.width == 2) smem_pattern<2><<<blocks, threads>>>(p, reps, sink);
  if (p.width == 4) smem_pattern<4><<<blocks, threads>>>(p, reps, sink);
  CUDA_CHECK_LAUNCH();
}

int stage_main(int argc, char** argv) {
  ladder::Cli cli("smem_patterns",
                  "runs the load patterns of the FP32 shared-memory stages, one kernel each, and "
                  "prints what the simple bank model predicts; scripts/smem_patterns.py adds "
                  "Nsight Compute's measured wavefronts per instruction");
  int reps = 256;
  cli.add_int("--reps", &reps, "loads per thread in each kernel", 1, 1 << 20);
  if (!cli.parse(argc, argv)) return ladder::kExitOk;
  const auto device = ladder::require_device();
  const int blocks = device.multiprocessors;
  const int threads = 1024;
  float* sink = nullptr;
  CUDA_CHECK(cudaMalloc(&sink, sizeof(float) * blocks * threads));
  std::printf("%s\n\n| pattern | bytes per warp | predicted wavefronts (busiest bank) |\n"
              "|---|---|---|\n", device.describe().c_str());
  for (const Pattern& p : kPatterns) {
    launch(p, blocks, threads, reps, sink);
    std::printf("| %s | %d | %d |\n", p.name, 32 * 4 * p.width, busiest_bank_words(p));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(sink));
  return ladder::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return ladder::run_program("smem_patterns", stage_main, argc, argv);
}
