// Written by scripts/fp8_model.py from the runs in results/22_gpu_fp8/model_fit/;
// edit that, not this. The constants of stage 22's model (README.md, G),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::fp8_model {

// Each tiling: BM x BN tiles (BM 128 unless written last) in clusters of c; tau, a 128-deep
// slice's time, and phi, a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.666234, 3.598434},  // 128x256_c2
    {256, 1, 0.662681, 3.336124},  // 128x256_c1
    {192, 2, 0.495795, 3.037778},  // 128x192_c2
    {192, 1, 0.498455, 2.395567},  // 128x192_c1
    {128, 1, 0.392189, 1.400454},  // 128x128_c1
    {256, 1, 0.489912, 2.474705, 64},  // 64x256_c1
    {128, 1, 0.277166, 1.217821, 64},  // 64x128_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 7,
    128,  // slice_k
    1,  // operand_bytes
    4,  // max_split: split-K's most ranges a tile
    1.520533,  // rho: a 128 x 256 partial tile saved or read
    4.298015,  // sigma_split: a split-K launch's extra
    2.253601,  // sigma_stream: a Stream-K launch's extra
    0.045730,  // tau_divided: a divided kernel's extra a slice
    0.000000,  // gamma: a slice's extra a KB read from L2, every SM busy (not in this fit)
    4.572133,  // lambda: the launch
    120000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
    0.25,  // alpha: the shorter of compute and memory, the share not hidden
    0.056058,  // gamma_sectors: a slice's extra a KB of sectors read beyond the aligned count
};

// Per block: the same model fitted to the per-block kernels' runs (README.md, E).
inline constexpr TilingCost kBlockTilings[] = {
    {256, 2, 0.818583, 3.411554},  // 128x256_c2
    {256, 1, 0.777472, 2.650083},  // 128x256_c1
    {192, 2, 0.616818, 2.853322},  // 128x192_c2
    {192, 1, 0.613758, 2.503993},  // 128x192_c1
    {128, 1, 0.469897, 1.258644},  // 128x128_c1
    {256, 1, 0.559956, 2.061340, 64},  // 64x256_c1
    {128, 1, 0.322596, 1.037842, 64},  // 64x128_c1
};

inline constexpr ModelConstants kBlockModel = {
    kBlockTilings, 7,
    128,  // slice_k
    1,  // operand_bytes
    4,  // max_split: split-K's most ranges a tile
    1.320056,  // rho: a 128 x 256 partial tile saved or read
    4.483548,  // sigma_split: a split-K launch's extra
    2.567735,  // sigma_stream: a Stream-K launch's extra
    0.040809,  // tau_divided: a divided kernel's extra a slice
    0.000000,  // gamma: a slice's extra a KB read from L2, every SM busy (not in this fit)
    4.841309,  // lambda: the launch
    120000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
    0.25,  // alpha: the shorter of compute and memory, the share not hidden
    0.046388,  // gamma_sectors: a slice's extra a KB of sectors read beyond the aligned count
};

static_assert(kBlockModel.max_split == kModel.max_split,
              "launch() divides per block with kModel's most ranges");

}  // namespace ladder::fp8_model
