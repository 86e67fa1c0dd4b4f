// Stage 21: dividing the work when the tiles do not fill the GPU in whole waves. Stage 19's
// kernel walks parts of tiles (a tile and a range of its k-slices) instead of whole tiles: split-K
// cuts the last wave's tiles along K, Stream-K gives every cluster an equal share of the
// multiply-accumulate iterations across tile boundaries; the parts of a tile are added in a fixed
// order through a workspace, so every run gives the same bits. Narrower tiles are the third way
// to fill the SMs, and a rule measured per shape picks among them. sm_90a only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants this stage is built with, by name; the first (by_shape) is the default, which
// picks one of the others per shape. The others are a tiling (128 x N tiles, clusters of 1 or
// 2) and a division: dp (whole tiles, as stage 19), split (the last wave's tiles split along K)
// or stream (Stream-K).
std::vector<std::string> stream_k_configs();

// What the rule reads of the GPU besides the shape: its SMs (one block each), and how many
// clusters of two 128 x 256 blocks it holds at once.
struct StreamKResidency {
  int sms = 0;
  int wide_pairs = 0;
};

// The rule: the variant by_shape runs for an m x n x k product on such a GPU (one of
// stream_k_configs()'s names), or "" for stage 19's default; default_on_wide_pairs: whether
// that default takes 128 x 256 tiles in clusters of two for this C (best_tiling,
// common/hopper/persistent_rule.cuh). A pure function: the tests check its choices.
// Throws std::invalid_argument for a GPU counted with no SM or no room for a pair.
std::string stream_k_rule(int m, int n, int k, const StreamKResidency& gpu,
                          bool default_on_wide_pairs);

// Where the parts of split tiles meet: FP32 partial tiles and one flag per partial. Allocated
// once, on the current device, large enough for every shape and variant (a 128 x 256 FP32 tile
// for each of its SMs), and reused by every launch: each launch sets the flags to its own
// number, so flags left by another launch, even one killed mid-way, never count as set.
// Launches that use it must not overlap: queue them on one stream (the default, as the
// programs and tests do); launches on two streams at once need two workspaces. Not copyable.
class StreamKWorkspace {
 public:
  StreamKWorkspace();
  ~StreamKWorkspace();
  StreamKWorkspace(const StreamKWorkspace&) = delete;
  StreamKWorkspace& operator=(const StreamKWorkspace&) = delete;

  // What the constructor allocates on the current device (for the memory check before it).
  static std::uint64_t bytes_needed();

  float* partials() const { return partials_; }
  int* flags() const { return flags_; }
  int blocks() const { return blocks_; }  // blocks it holds a partial tile for: one per SM
  int device() const { return device_; }  // the device it was allocated on

 private:
  float* partials_ = nullptr;
  int* flags_ = nullptr;
  int device_ = 0;
  int blocks_ = 0;
};

// c = a * b on device views with the named variant, any sizes and strides; the path and the
// errors as launch_gemm_tma_wgmma's (stage 15's kernel where A or B allow no tensor map). An
// unknown variant throws std::invalid_argument, and so does a workspace made on another
// device than the current one.
OperandPath launch_gemm_stream_k(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c,
                                 const StreamKWorkspace& workspace);

}  // namespace ladder
