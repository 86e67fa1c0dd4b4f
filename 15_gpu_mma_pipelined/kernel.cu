#include "15_gpu_mma_pipelined/kernel.hpp"

#include "common/aligned_access.hpp"
#include "common/config_table.hpp"
#include "common/errors.hpp"
#include "common/sm80/mma_pipeline.cuh"
#include "common/tensor_cores.hpp"

namespace ladder {
namespace {

// The kernel's configuration, as this file's own type: the kernels it instantiates keep
// internal linkage, as every stage's do, apart from the fallback's (common/sm80/fallback.cu).
template <int BlockM, int BlockN, int WarpM, int WarpN, int Stages, int GroupM = 1,
          int BlocksPerSM = 1, bool DoubleFragments = false>
struct Config : mma::PipelineConfig<BlockM, BlockN, WarpM, WarpN, Stages, GroupM, BlocksPerSM,
                                    DoubleFragments> {};

struct Tiling {
  const char* name;
  int shared_bytes;
  void (*launch)(OperandPath path, MatrixBf16 a, MatrixBf16 b, Matrix c);
};

template <class Cfg>
Tiling tiling(const char* name) {
  return Tiling{name, Cfg::kSharedBytes, mma::launch_mma_pipelined<Cfg>};
}

// block MxN, warp MxN, stages, rasterisation group (g8: 8 tile rows), blocks per SM asked of
// the compiler (b2: at most 128 registers a thread), double-buffered fragments (df). The first
// is the default.
const Tiling kTilings[] = {
    tiling<Config<128, 128, 64, 64, 3>>("128x128_w64x64_s3"),
    tiling<Config<128, 128, 64, 64, 3, 8>>("128x128_w64x64_s3_g8"),
    tiling<Config<128, 128, 64, 32, 3, 1, 2>>("128x128_w64x32_s3_b2"),
    tiling<Config<128, 128, 64, 64, 3, 1, 1, true>>("128x128_w64x64_s3_df"),
    tiling<Config<128, 256, 64, 64, 3>>("128x256_w64x64_s3"),
    tiling<Config<128, 128, 64, 64, 2>>("128x128_w64x64_s2"),
    tiling<Config<128, 128, 64, 64, 4>>("128x128_w64x64_s4"),
};

const Tiling& find(const std::string& config) {
  return find_config(kTilings, config, "stage 15 has no tiling");
}

}  // namespace

std::vector<std::string> mma_pipelined_configs() { return config_names(kTilings); }

std::string mma_pipelined_unfit_reason(const std::string& config) {
  const Tiling& t = find(config);
  const int limit = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  if (t.shared_bytes <= limit) return "";
  return "tiling " + config + " needs " + std::to_string(t.shared_bytes) +
         " bytes of shared memory per block; this GPU allows " + std::to_string(limit);
}

OperandPath launch_gemm_mma_pipelined(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                      Matrix c) {
  const Tiling& t = find(config);
  check_gemm_shapes(a, b, c);
  require_bf16_tensor_cores();
  const std::string unfit = mma_pipelined_unfit_reason(config);
  if (!unfit.empty()) throw UsageError(unfit);
  const OperandPath path = sixteen_byte_path({a, b});
  if (c.empty()) return path;
  t.launch(path, a, b, c);
  return path;
}

}  // namespace ladder
