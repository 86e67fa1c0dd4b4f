// Written by scripts/fp8_model.py from the runs in results/22_gpu_fp8/model_fit/;
// edit that, not this. The constants of stage 22's model (README.md, G),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::fp8_model {

// Each tiling: BM x BN tiles (BM 128 unless written last) in clusters of c; tau, a 128-deep
// slice's time, and phi, a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.668631, 3.843514},  // 128x256_c2
    {256, 1, 0.663452, 3.593024},  // 128x256_c1
    {192, 2, 0.496375, 3.289480},  // 128x192_c2
    {192, 1, 0.498608, 2.628878},  // 128x192_c1
    {128, 1, 0.392485, 1.579796},  // 128x128_c1
    {256, 1, 0.490484, 2.663578, 64},  // 64x256_c1
    {128, 1, 0.276949, 1.344948, 64},  // 64x128_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 7,
    128,  // slice_k
    1,  // operand_bytes
    4,  // max_split: split-K's most ranges a tile
    1.509206,  // rho: a 128 x 256 partial tile saved or read
    4.301914,  // sigma_split: a split-K launch's extra
    2.067099,  // sigma_stream: a Stream-K launch's extra
    0.044568,  // tau_divided: a divided kernel's extra a slice
    0.000000,  // gamma: a slice's extra a KB read from L2, every SM busy (not in this fit)
    4.334622,  // lambda: the launch
    120000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
    0.25,  // alpha: the shorter of compute and memory, the share not hidden
};

// Per block: the same model fitted to the per-block kernels' runs (README.md, E).
inline constexpr TilingCost kBlockTilings[] = {
    {256, 2, 0.835013, 3.487168},  // 128x256_c2
    {256, 1, 0.791738, 2.760782},  // 128x256_c1
    {192, 2, 0.628313, 2.954011},  // 128x192_c2
    {192, 1, 0.626448, 2.589515},  // 128x192_c1
    {128, 1, 0.479801, 1.299651},  // 128x128_c1
    {256, 1, 0.569788, 2.118753, 64},  // 64x256_c1
    {128, 1, 0.327475, 1.087656, 64},  // 64x128_c1
};

inline constexpr ModelConstants kBlockModel = {
    kBlockTilings, 7,
    128,  // slice_k
    1,  // operand_bytes
    4,  // max_split: split-K's most ranges a tile
    1.309589,  // rho: a 128 x 256 partial tile saved or read
    4.563859,  // sigma_split: a split-K launch's extra
    2.632589,  // sigma_stream: a Stream-K launch's extra
    0.040840,  // tau_divided: a divided kernel's extra a slice
    0.000000,  // gamma: a slice's extra a KB read from L2, every SM busy (not in this fit)
    4.782037,  // lambda: the launch
    120000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
    0.2,  // alpha: the shorter of compute and memory, the share not hidden
};

static_assert(kBlockModel.max_split == kModel.max_split,
              "launch() divides per block with kModel's most ranges");

}  // namespace ladder::fp8_model
