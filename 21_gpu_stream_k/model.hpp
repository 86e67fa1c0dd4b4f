// Stage 21's default, by_shape: the variant whose time a model of the GPU predicts shortest
// (README.md, D). Host code only: the model reads the shape and a few counts of the GPU.
#pragma once

#include <string>

namespace ladder {

// What the model reads of the GPU besides the shape (launch_by_shape asks the device).
struct StreamKGpu {
  int sms = 0;                // one block of every tiling each
  int pairs = 0;              // clusters of two 128 x 256 blocks resident at once
  double clock_mhz = 0;       // the maximum SM clock
  double bytes_per_us = 0;    // what DRAM delivers to a copy
};

// The depth of the slices the model counts: hopper::kSliceK, which kernel.cu checks it against.
inline constexpr int kModelSliceK = 64;

// Split-K cuts a tile into at most this many ranges: each more adds a partial tile to write
// and read for a shorter product.
inline constexpr int kMaxSplit = 4;

// Into how many K-ranges split-K cuts each tile of the last, partial wave of `tiles` among
// `resident` clusters: 1 where the waves are whole or the last one too full to split. divide()
// (kernel.cu) cuts the tiles so, and the model counts them so.
int split_ways(long long tiles, long long resident, long long slices);

// The model's prediction, in microseconds, for a tiling (as model_constants.hpp names them:
// "128x256_c2", ...) with a division ("dp", "split" or "stream") of an m x n x k product.
double stream_k_predicted_us(const std::string& tiling, const std::string& division, int m,
                             int n, int k, const StreamKGpu& gpu);

// The variant by_shape runs: the name of the variant predicted fastest, or "" where stage 19's
// default (whole tiles of `default_tiling`, its choice for this C) is. Throws
// std::invalid_argument for a GPU counted with no SM, no pair, no clock or no bandwidth, or an
// unknown tiling.
std::string stream_k_choice(int m, int n, int k, const StreamKGpu& gpu,
                            const std::string& default_tiling);

}  // namespace ladder
