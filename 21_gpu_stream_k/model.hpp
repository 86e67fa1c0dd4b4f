// Stage 21's default, by_shape: the variant whose time a model of the GPU predicts shortest
// (README.md, D). Host code only: the model reads the shape and a few counts of the GPU.
#pragma once

#include <vector>

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

// How a variant divides the tiles among the clusters (README.md, A): whole tiles as stage 19
// (data-parallel), the last wave's tiles cut along K (split-K), or the last two waves' slices
// shared evenly (Stream-K).
enum class Scheme { data_parallel, split_k, stream_k };

// What the model prices: 128 x block_n tiles in clusters of `cluster` blocks, divided by
// `scheme`.
struct Candidate {
  int block_n;
  int cluster;
  Scheme scheme;
};

// The model's prediction, in microseconds, for an m x n x k product. Throws
// std::invalid_argument for a GPU counted with no SM, no pair, no clock or no bandwidth, or a
// tiling model_constants.hpp has no constants for.
double stream_k_predicted_us(const Candidate& candidate, int m, int n, int k,
                             const StreamKGpu& gpu);

// What by_shape runs: the index in `candidates` of the one predicted fastest, or -1 where
// stage 19's default (`stage19`: its whole tiles for this C) is. Stage 19's is priced first, then
// the candidates in order: on a tie the first runs.
int stream_k_choice(int m, int n, int k, const StreamKGpu& gpu, const Candidate& stage19,
                    const std::vector<Candidate>& candidates);

}  // namespace ladder
