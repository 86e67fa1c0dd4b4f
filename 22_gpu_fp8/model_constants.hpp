// Written by scripts/fp8_model.py from the runs in results/22_gpu_fp8/model_fit/;
// edit that, not this. The constants of stage 22's model (README.md, G),
// in microseconds on an H200 at its 1980 MHz maximum SM clock.
#pragma once

#include "common/hopper/tile_model.hpp"

namespace ladder::fp8_model {

// Each tiling: 128 x BN tiles in clusters of c; tau, a 128-deep slice's time, and phi,
// a tile's fixed cost (its first loads and its store).
inline constexpr TilingCost kTilings[] = {
    {256, 2, 0.743290, 3.050288},  // 128x256_c2
    {256, 1, 0.735471, 2.853421},  // 128x256_c1
    {192, 2, 0.555631, 2.571903},  // 128x192_c2
    {192, 1, 0.561250, 1.807224},  // 128x192_c1
    {128, 1, 0.433088, 1.059678},  // 128x128_c1
};

inline constexpr ModelConstants kModel = {
    kTilings, 5,
    128,  // slice_k
    1,  // operand_bytes
    2.207019,  // rho: a 128 x 256 partial tile read back
    3.305936,  // sigma_split: a split-K launch's extra
    2.271972,  // sigma_stream: a Stream-K launch's extra
    0.062243,  // tau_divided: a divided kernel's extra a slice
    5.134137,  // lambda: the launch
    50000.0,  // beta: one SM's share of DRAM
    1980,  // the clock of the fit
};

}  // namespace ladder::fp8_model
