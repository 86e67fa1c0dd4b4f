// The model that picks a persistent stage's variant: stage 21's by_shape and stage 22's by_size
// run the candidate it predicts fastest from the shape and a few counts of the GPU (stage 21's
// README.md, D), with the stage's constants, fitted by its script (model_constants.hpp).
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

// The current device's counts (`pairs` the caller's, for its kernel), asked of the driver once a
// device under a lock; the copy rate: the DRAM peak times cudaMemcpy's share of it on the H200.
ModelGpu current_gpu(int pairs);

// The K-ranges split-K cuts each tile of the last wave of `tiles` on `resident` clusters into, as
// divide() cuts and the model counts: as many as fill the wave, at most `most` and the slices.
int split_ways(long long tiles, long long resident, long long slices, int most);

// How a variant divides the tiles among the clusters (21_gpu_stream_k/README.md, A): whole tiles
// (data-parallel), the last wave's cut along K (split-K), or the last two waves' slices shared.
enum class Scheme { data_parallel, split_k, stream_k };

// What the model prices: block_m x block_n tiles, in clusters of `cluster`, divided by `scheme`.
struct Candidate {
  int block_n, cluster;
  Scheme scheme;
  int block_m = 128;  // 64 for stage 21's tiles for small M
};

// A tiling's constants: block_m x block_n tiles in clusters of `cluster` blocks; tau, a slice's
// time, and phi, a tile's fixed cost (its first loads and its store).
struct TilingCost {
  int block_n, cluster;
  double tau, phi;
  int block_m = 128;
};

// One stage's constants, in microseconds at fit_clock_mhz.
struct ModelConstants {
  const TilingCost* tilings;
  int tiling_count;
  int slice_k, operand_bytes;  // the K one slice covers; the bytes an element of A or B takes
  int max_split;      // the most K-ranges split-K cuts a tile into (split_ways' `most`)
  double rho;         // a 128 x 256 partial tile saved or read
  double sigma_split, sigma_stream;  // a split-K launch's extra, a Stream-K launch's
  double tau_divided;  // a divided kernel's extra a slice (more registers: FP8's spill), or 0
  double gamma;  // a slice's extra per KB read from L2, every SM reading (scaled by SMs at work)
  double lambda;        // the launch
  double beta_bytes_per_us, fit_clock_mhz;  // one SM's share of DRAM; the clock of the fit
  double alpha = 0;  // the shorter of compute and memory: the share the longer does not hide
  double gamma_sectors = 0;  // as gamma, a KB of 32-byte sectors read beyond the aligned count
};

struct RowBytes { long long a = 0, b = 0; };  // bytes a row of A, of B^T (0: rows on sectors)
// The predicted microseconds of an m x n x k product for `candidate`, rows of A and of B^T
// `row_bytes` apart, each matrix starting on a 32-byte sector. Throws std::invalid_argument for
// a GPU with a count of 0 or a tiling `model` has no constants for.
double predicted_us(const ModelConstants& model, const Candidate& candidate, int m, int n, int k,
                    const ModelGpu& gpu, RowBytes row_bytes = {});

// The index in `candidates` of the one predicted fastest; the first on a tie.
int fastest(const ModelConstants& model, int m, int n, int k, const ModelGpu& gpu,
            const std::vector<Candidate>& candidates, RowBytes row_bytes = {});
// fastest(), kept per GPU, shape and candidates (4,096 at most): pricing walks Stream-K's runs,
// microseconds that a small product's launch would wait for on every call.
int kept_fastest(const ModelConstants& model, int m, int n, int k, const ModelGpu& gpu,
                 const std::vector<Candidate>& candidates, RowBytes row_bytes = {});

}  // namespace ladder
