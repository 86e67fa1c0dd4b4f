// Written by scripts/stream_k_model.py from the runs in results/21_gpu_stream_k/model_fit/;
// edit that, not this. The constants of stage 21's model (README.md, D),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::stream_k_model {

// Each tiling: 128 x BN tiles in clusters of c; tau, a 64-deep slice's time, and phi,
// a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.594420, 2.686541},  // 128x256_c2
    {256, 1, 0.551074, 3.316252},  // 128x256_c1
    {192, 2, 0.445542, 3.170127},  // 128x192_c2
    {192, 1, 0.422448, 2.495033},  // 128x192_c1
    {128, 1, 0.362320, 0.774653},  // 128x128_c1
    {64, 1, 0.230689, 0.502629},  // 128x64_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 6,
    64,  // slice_k
    2,  // operand_bytes
    16,  // max_split: split-K's most ranges a tile
    1.459728,  // rho: a 128 x 256 partial tile read back
    5.958710,  // sigma_split: a split-K launch's extra
    5.300541,  // sigma_stream: a Stream-K launch's extra
    0.000000,  // tau_divided: a divided kernel's extra a slice (not in this fit)
    0.002473,  // gamma: a slice's extra a KB read from L2, every SM busy
    4.167493,  // lambda: the launch
    60000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
};

}  // namespace ladder::stream_k_model
