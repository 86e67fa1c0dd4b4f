// The model that picks a persistent stage's variant: stage 21's by_shape and stage 22's
// by_size run the candidate whose time it predicts shortest from the shape and a few counts of
// the GPU (21_gpu_stream_k/README.md, D). Each stage brings its constants, which its script
// fits on timed runs and writes into its model_constants.hpp. Host code only.
#pragma once

#include <vector>

namespace ladder {

// What the model reads of the GPU besides the shape.
struct ModelGpu {
  int sms = 0;              // one block of every tiling each
  int pairs = 0;            // clusters of two 128 x 256 blocks resident at once
  double clock_mhz = 0;     // the maximum SM clock
  double bytes_per_us = 0;  // what DRAM delivers to a copy
  double l2_bytes = 0;      // the L2 cache's size
};

// The current device's counts, `pairs` as the caller counts them for its kernel; the rest asked
// of the driver once per device, under a lock (the clocks take about a millisecond). The copy
// rate: the memory clock's peak times cudaMemcpy's share of it on the H200 (4,178 of 4,814 GB/s).
ModelGpu current_gpu(int pairs);

// Into how many K-ranges split-K cuts each tile of the last, partial wave of `tiles` among
// `resident` clusters: as many as fill the wave, at most `most` and the slices; 1 where the waves
// are whole or the last too full to split. divide() cuts so, and the model counts so.
int split_ways(long long tiles, long long resident, long long slices, int most);

// How a variant divides the tiles among the clusters (21_gpu_stream_k/README.md, A): whole
// tiles as stage 19 (data-parallel), the last wave's tiles cut along K (split-K), or the last
// two waves' slices shared evenly (Stream-K).
enum class Scheme { data_parallel, split_k, stream_k };

// What the model prices: 128 x block_n tiles in clusters of `cluster` blocks, divided by `scheme`.
struct Candidate {
  int block_n, cluster;
  Scheme scheme;
};

// A tiling's constants: 128 x block_n tiles in clusters of `cluster` blocks; tau, a slice's
// time, and phi, a tile's fixed cost (its first loads and its store).
struct TilingCost {
  int block_n, cluster;
  double tau, phi;
};

// One stage's constants, in microseconds at fit_clock_mhz.
struct ModelConstants {
  const TilingCost* tilings;
  int tiling_count;
  int slice_k;        // the K one slice covers
  int operand_bytes;  // the bytes an element of A or B takes
  int max_split;      // the most K-ranges split-K cuts a tile into (split_ways' `most`)
  double rho;         // a 128 x 256 partial tile saved or read
  double sigma_split;   // a split-K launch's extra
  double sigma_stream;  // a Stream-K launch's extra
  double tau_divided;  // a divided kernel's extra a slice (more registers: FP8's spill), or 0
  double gamma;  // a slice's extra per KB read from L2, every SM reading (scaled by SMs at work)
  double lambda;        // the launch
  double beta_bytes_per_us;  // one SM's share of DRAM
  double fit_clock_mhz;
};

// The predicted microseconds of an m x n x k product for `candidate`. Throws
// std::invalid_argument for a GPU with a count of 0 or a tiling `model` has no constants for.
double predicted_us(const ModelConstants& model, const Candidate& candidate, int m, int n, int k,
                    const ModelGpu& gpu);

// The index in `candidates` of the one predicted fastest; the first on a tie.
int fastest(const ModelConstants& model, int m, int n, int k, const ModelGpu& gpu,
            const std::vector<Candidate>& candidates);
// fastest(), kept per GPU, shape and candidates (4,096 at most): pricing walks Stream-K's runs,
// microseconds that a small product's launch would wait for on every call.
int kept_fastest(const ModelConstants& model, int m, int n, int k, const ModelGpu& gpu,
                 const std::vector<Candidate>& candidates);

}  // namespace ladder
