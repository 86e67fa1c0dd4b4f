#include "19_gpu_clusters/kernel.hpp"

#include "common/hopper/bf16_operands.cuh"
#include "common/hopper/launch.hpp"
#include "common/hopper/persistent_kernel.cuh"

namespace ladder {
namespace {

using namespace persistent;

// The persistent kernel (common/hopper/persistent_kernel.cuh) in clusters: Wide and Narrow
// are 128 x 256 and 128 x 192 tiles in clusters of two (persistent.cuh), WideAlone and
// NarrowAlone the same tiles without. The first is the default, by_size, which picks one of
// those four per problem (launch_best); each other one fixes its tiling. Without clusters, on
// 128 x 256 tiles, it runs as stage 18's default, the program's baseline row
// (results/19_gpu_clusters/search.md).
const HopperVariant kVariants[] = {
    {"by_size", launch_best<Bf16Operands>},
    {"128x256_c2_g8", launch_persistent<Bf16Operands, Wide>},
    {"128x192_c2_g8", launch_persistent<Bf16Operands, Narrow>},
    {"128x192_c1_g8", launch_persistent<Bf16Operands, NarrowAlone>},
    {"256x128_c2_g8", launch_persistent<Bf16Operands, Config<256, 128, 128, 2>>},
};

}  // namespace

std::vector<std::string> cluster_configs() { return config_names(kVariants); }

OperandPath launch_gemm_clusters(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                 Matrix c) {
  return launch_hopper_variant(find_config(kVariants, config, "stage 19 has no variant"), a, b,
                               c);
}

}  // namespace ladder
