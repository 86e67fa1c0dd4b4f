// Written by scripts/fp8_model.py from the runs in results/22_gpu_fp8/model_fit/;
// edit that, not this. The constants of stage 22's model (README.md, G),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::fp8_model {

// Each tiling: BM x BN tiles (BM 128 unless written last) in clusters of c; tau, a 128-deep
// slice's time, and phi, a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.741533, 3.156237},  // 128x256_c2
    {256, 1, 0.735448, 2.855700},  // 128x256_c1
    {192, 2, 0.555608, 2.573901},  // 128x192_c2
    {192, 1, 0.560740, 1.840572},  // 128x192_c1
    {128, 1, 0.435482, 0.952061},  // 128x128_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 5,
    128,  // slice_k
    1,  // operand_bytes
    4,  // max_split: split-K's most ranges a tile
    1.552134,  // rho: a 128 x 256 partial tile saved or read
    4.293921,  // sigma_split: a split-K launch's extra
    2.827891,  // sigma_stream: a Stream-K launch's extra
    0.062880,  // tau_divided: a divided kernel's extra a slice
    0.000000,  // gamma: a slice's extra a KB read from L2, every SM busy (not in this fit)
    5.131660,  // lambda: the launch
    50000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
    0.0,  // alpha: the shorter of compute and memory, the share not hidden (not in this fit)
};

// Per block: the same model fitted to the per-block kernels' runs (README.md, E).
inline constexpr TilingCost kBlockTilings[] = {
    {256, 2, 0.895550, 2.821232},  // 128x256_c2
    {256, 1, 0.846683, 2.183154},  // 128x256_c1
    {192, 2, 0.670505, 2.485062},  // 128x192_c2
    {192, 1, 0.664269, 1.986938},  // 128x192_c1
    {128, 1, 0.512101, 0.941811},  // 128x128_c1
};

inline constexpr ModelConstants kBlockModel = {
    kBlockTilings, 5,
    128,  // slice_k
    1,  // operand_bytes
    4,  // max_split: split-K's most ranges a tile
    1.351186,  // rho: a 128 x 256 partial tile saved or read
    4.586158,  // sigma_split: a split-K launch's extra
    2.996542,  // sigma_stream: a Stream-K launch's extra
    0.050811,  // tau_divided: a divided kernel's extra a slice
    0.000000,  // gamma: a slice's extra a KB read from L2, every SM busy (not in this fit)
    5.485690,  // lambda: the launch
    50000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
    0.0,  // alpha: the shorter of compute and memory, the share not hidden (not in this fit)
};

static_assert(kBlockModel.max_split == kModel.max_split,
              "launch() divides per block with kModel's most ranges");

}  // namespace ladder::fp8_model
