// Written by scripts/stream_k_model.py from the runs in results/21_gpu_stream_k/model_fit/;
// edit that, not this. The constants of stage 21's model (README.md, D), in microseconds
// on an H200 at its 1980 MHz maximum SM clock.
#pragma once

namespace ladder::stream_k_model {

inline constexpr double kFitClockMhz = 1980;

// A tiling: BM x BN tiles in clusters of `cluster` blocks; tau, a 64-deep slice's time, and
// phi, a tile's fixed cost (its first loads and its store).
struct TilingCost {
  const char* name;
  int block_m, block_n, cluster;
  double tau, phi;
};
inline constexpr TilingCost kTilings[] = {
    {"128x256_c2", 128, 256, 2, 0.637891, 3.375929},
    {"128x256_c1", 128, 256, 1, 0.714029, 2.892445},
    {"128x192_c2", 128, 192, 2, 0.533028, 0.860049},
    {"128x192_c1", 128, 192, 1, 0.478950, 2.117178},
    {"128x128_c1", 128, 128, 1, 0.471694, 0.378004},
    {"128x64_c1", 128, 64, 1, 0.291788, 0.606077},
};

inline constexpr double kRho = 2.186100;  // a 128 x 256 partial tile read back
inline constexpr double kSigmaSplit = 3.883651;  // a split-K launch's extra
inline constexpr double kSigmaStream = 5.898647;  // a Stream-K launch's extra
inline constexpr double kLambda = 4.983744;  // the launch
inline constexpr double kBetaBytesPerUs = 60000.0;  // one SM's share of DRAM

}  // namespace ladder::stream_k_model
