#include "18_gpu_persistent/kernel.hpp"

#include "common/hopper/launch.hpp"
#include "common/hopper/persistent.cuh"
#include "common/hopper/persistent_kernel.cuh"

namespace ladder {
namespace {

using persistent::Bf16Operands;
using persistent::Config;
using persistent::launch_persistent;

// The persistent kernel (common/hopper/persistent_kernel.cuh) with one block per cluster, so
// that its cluster code compiles away. Config's arguments: tile rows and columns, rows per
// consumer, blocks per cluster, tile rows per group of the tile order, persistent, TMA store,
// even rounds.
template <int GroupM, bool Persistent, bool TmaStore = true, bool EvenRounds = true>
using Tiling = Config<128, 256, 64, 1, GroupM, Persistent, TmaStore, EvenRounds>;

// The first is the default; each other one turns one of its ideas off
// (results/18_gpu_persistent/notes.md).
const HopperVariant kVariants[] = {
    {"128x256_g8", launch_persistent<Bf16Operands, Tiling<8, true>>},
    {"128x256_g8_direct_store", launch_persistent<Bf16Operands, Tiling<8, true, false>>},
    {"128x256_g8_uneven", launch_persistent<Bf16Operands, Tiling<8, true, true, false>>},
    {"128x256_g1", launch_persistent<Bf16Operands, Tiling<1, true>>},      // row order
    {"128x256_tiled", launch_persistent<Bf16Operands, Tiling<8, false>>},  // one tile per block
};

}  // namespace

std::vector<std::string> persistent_configs() { return config_names(kVariants); }

OperandPath launch_gemm_persistent(const std::string& config, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c) {
  return launch_hopper_variant(find_config(kVariants, config, "stage 18 has no variant"), a, b,
                               c);
}

}  // namespace ladder
