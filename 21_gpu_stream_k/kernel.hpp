// Stage 21: stage 19's kernel walking parts of tiles (split-K, Stream-K), narrower tiles, and a
// rule measured per shape that picks among them. sm_90a only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants by name: by_shape, the default, which picks one of the others per shape, then
// each tiling (128 x N tiles, clusters of 1 or 2) with a division: dp (whole tiles, as stage
// 19), split or stream.
std::vector<std::string> stream_k_configs();

// What the rule reads of the GPU besides the shape: its SMs (one block each), and how many
// clusters of two 128 x 256 blocks it holds at once.
struct StreamKResidency {
  int sms = 0;
  int wide_pairs = 0;
};

// The rule: the variant by_shape runs for an m x n x k product on such a GPU, or "" for stage
// 19's default; default_on_wide_pairs: whether that default takes 128 x 256 tiles in clusters
// of two for this C. Throws std::invalid_argument for a GPU counted with no SM or no pair.
std::string stream_k_rule(int m, int n, int k, const StreamKResidency& gpu,
                          bool default_on_wide_pairs);

// Where the parts of split tiles meet: a 128 x 256 FP32 partial tile and two flags per SM of
// the current device, allocated once and reused by every launch (each sets the flags to its own
// number). Launches that use it must not overlap: queue them on one stream. Not copyable.
class StreamKWorkspace {
 public:
  StreamKWorkspace();
  ~StreamKWorkspace();
  StreamKWorkspace(const StreamKWorkspace&) = delete;
  StreamKWorkspace& operator=(const StreamKWorkspace&) = delete;

  // What the constructor allocates (for the memory check before it).
  static std::uint64_t bytes_needed();

  float* partials() const { return partials_; }
  int* flags() const { return flags_; }
  int blocks() const { return blocks_; }  // blocks it holds a partial tile for: one per SM
  std::size_t partial_bytes() const;       // the bytes at partials()
  std::size_t flag_count() const;          // the ints at flags()
  int device() const { return device_; }  // the device it was allocated on

 private:
  float* partials_ = nullptr;
  int* flags_ = nullptr;
  int device_ = 0;
  int blocks_ = 0;
};

// c = a * b on device views with the named variant, any sizes and strides; the path and the
// errors as launch_gemm_tma_wgmma's (stage 15's kernel where A or B allow no tensor map), and
// std::invalid_argument for an unknown variant or a workspace made on another device.
OperandPath launch_gemm_stream_k(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c,
                                 const StreamKWorkspace& workspace);

}  // namespace ladder
