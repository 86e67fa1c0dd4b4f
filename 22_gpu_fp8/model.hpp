// Stage 22's default, by_size: the tiling whose time on whole tiles a model of the GPU predicts
// shortest (README.md, G): stage 21's model of its data-parallel variants, with FP8's constants
// (model_constants.hpp, which scripts/fp8_model.py fits). Host code only.
#pragma once

#include <vector>

namespace ladder {

// What the model reads of the GPU besides the shape (the launcher asks the device).
struct Fp8Gpu {
  int sms = 0;              // one block of every tiling each
  int pairs = 0;            // clusters of two 128 x 256 blocks resident at once
  double clock_mhz = 0;     // the maximum SM clock
  double bytes_per_us = 0;  // what DRAM delivers to a copy
};

// 128 x block_n tiles in clusters of `cluster` blocks, promoted every slice of 128.
struct Fp8Tiling {
  int block_n;
  int cluster;
};

// The predicted microseconds of an m x n x k product in whole tiles of `tiling`: the slowest
// cluster's rounds of tiles, each of ceil(k / 128) slices at the tiling's rate and its fixed
// cost, or the least the product moves at what the busy SMs draw from DRAM, whichever is
// longer, plus the launch. Throws std::invalid_argument for a GPU counted with no SM, pair,
// clock or bandwidth, or a tiling model_constants.hpp has no constants for.
double fp8_predicted_us(const Fp8Tiling& tiling, int m, int n, int k, const Fp8Gpu& gpu);

// The index in `tilings` of the one predicted fastest; the first on a tie.
int fp8_choice(int m, int n, int k, const Fp8Gpu& gpu, const std::vector<Fp8Tiling>& tilings);

}  // namespace ladder
