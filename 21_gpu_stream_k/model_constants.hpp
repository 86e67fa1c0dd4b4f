// Written by scripts/stream_k_model.py from the runs in results/21_gpu_stream_k/model_fit/;
// edit that, not this. The constants of stage 21's model (README.md, D),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::stream_k_model {

// Each tiling: 128 x BN tiles in clusters of c; tau, a 64-deep slice's time, and phi,
// a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.585455, 2.990456},  // 128x256_c2
    {256, 1, 0.549708, 3.486272},  // 128x256_c1
    {192, 2, 0.442032, 3.395522},  // 128x192_c2
    {192, 1, 0.424874, 2.663920},  // 128x192_c1
    {128, 1, 0.366633, 0.890371},  // 128x128_c1
    {64, 1, 0.234109, 0.652165},  // 128x64_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 6,
    64,  // slice_k
    2,  // operand_bytes
    64,  // max_split: split-K's most ranges a tile
    1.404466,  // rho: a 128 x 256 partial tile saved or read
    6.875408,  // sigma_split: a split-K launch's extra
    5.333264,  // sigma_stream: a Stream-K launch's extra
    0.000000,  // tau_divided: a divided kernel's extra a slice (not in this fit)
    0.002211,  // gamma: a slice's extra a KB read from L2, every SM busy
    4.129608,  // lambda: the launch
    60000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
};

}  // namespace ladder::stream_k_model
