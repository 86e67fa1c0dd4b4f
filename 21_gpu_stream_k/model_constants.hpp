// Written by scripts/stream_k_model.py from the runs in results/21_gpu_stream_k/model_fit/;
// edit that, not this. The constants of stage 21's model (README.md, D),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::stream_k_model {

// Each tiling: BM x BN tiles (BM 128 unless written last) in clusters of c; tau, a 64-deep
// slice's time, and phi, a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.529162, 3.930771},  // 128x256_c2
    {256, 1, 0.496653, 4.363005},  // 128x256_c1
    {192, 2, 0.400244, 4.110072},  // 128x192_c2
    {192, 1, 0.386302, 3.359472},  // 128x192_c1
    {128, 1, 0.332630, 1.757110},  // 128x128_c1
    {64, 1, 0.216775, 1.032062},  // 128x64_c1
    {256, 1, 0.443158, 0.874398, 64},  // 64x256_c1
    {128, 1, 0.265004, 0.087614, 64},  // 64x128_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 8,
    64,  // slice_k
    2,  // operand_bytes
    64,  // max_split: split-K's most ranges a tile
    1.524300,  // rho: a 128 x 256 partial tile saved or read
    5.952775,  // sigma_split: a split-K launch's extra
    3.461347,  // sigma_stream: a Stream-K launch's extra
    0.000000,  // tau_divided: a divided kernel's extra a slice (not in this fit)
    0.002568,  // gamma: a slice's extra a KB read from L2, every SM busy
    3.428634,  // lambda: the launch
    120000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
    0.15,  // alpha: the shorter of compute and memory, the share not hidden
};

}  // namespace ladder::stream_k_model
