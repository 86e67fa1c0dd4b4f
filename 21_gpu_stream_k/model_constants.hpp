// Written by scripts/stream_k_model.py from the runs in results/21_gpu_stream_k/model_fit/;
// edit that, not this. The constants of stage 21's model (README.md, D),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::stream_k_model {

// Each tiling: 128 x BN tiles in clusters of c; tau, a 64-deep slice's time, and phi,
// a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.599136, 2.838201},  // 128x256_c2
    {256, 1, 0.560049, 3.514882},  // 128x256_c1
    {192, 2, 0.450214, 3.380971},  // 128x192_c2
    {192, 1, 0.430075, 2.695674},  // 128x192_c1
    {128, 1, 0.368400, 0.912352},  // 128x128_c1
    {64, 1, 0.236148, 0.592751},  // 128x64_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 6,
    64,  // slice_k
    2,  // operand_bytes
    16,  // max_split: split-K's most ranges a tile
    1.453213,  // rho: a 128 x 256 partial tile read back
    6.078547,  // sigma_split: a split-K launch's extra
    5.308652,  // sigma_stream: a Stream-K launch's extra
    0.000000,  // tau_divided: a divided kernel's extra a slice (not in this fit)
    0.002222,  // gamma: a slice's extra a KB read from L2, every SM busy
    3.923550,  // lambda: the launch
    60000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
};

}  // namespace ladder::stream_k_model
