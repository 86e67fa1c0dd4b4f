// Written by scripts/fp8_model.py from the runs in results/22_gpu_fp8/model_fit/;
// edit that, not this. The constants of stage 22's model (README.md, G),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::fp8_model {

// Each tiling: 128 x BN tiles in clusters of c; tau, a 128-deep slice's time, and phi,
// a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.750742, 3.519015},  // 128x256_c2
    {256, 1, 0.730765, 3.334921},  // 128x256_c1
    {192, 2, 0.550835, 2.993958},  // 128x192_c2
    {192, 1, 0.573255, 2.004582},  // 128x192_c1
    {128, 1, 0.458986, 0.847234},  // 128x128_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 5,
    128,  // slice_k
    1,  // operand_bytes
    2.026104,  // rho: a 128 x 256 partial tile read back
    4.743281,  // sigma_split: a split-K launch's extra
    5.650371,  // sigma_stream: a Stream-K launch's extra
    4.610883,  // lambda: the launch
    50000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
};

}  // namespace ladder::fp8_model
