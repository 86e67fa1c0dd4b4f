// The FP8 ground, host side: an owner of E4M3 elements in host memory, and the references the
// device's quantisation and products are checked against (matrix_fp8.hpp holds the views).
#pragma once

#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_fp8.hpp"

namespace ladder {

// An E4M3 matrix in host memory (stride = width), zeros at first: owns its elements and hands
// out MatrixFp8 views, as HostMatrix does for floats.
class HostMatrixFp8 {
 public:
  HostMatrixFp8(int height, int width);
  MatrixFp8 view() { return MatrixFp8{width_, height_, width_, elements_.data()}; }

 private:
  int width_;
  int height_;
  std::vector<fp8_e4m3> elements_;
};

// src^T, on the host.
HostMatrixFp8 transposed(const MatrixFp8& src);

// The largest |x| of a host view; std::invalid_argument if an element is NaN or infinite (no
// scale could bring it into range).
float largest_magnitude(const Matrix& m);

// The per-tensor scale for values whose largest magnitude is `largest`: the factor that maps
// it onto kE4m3Max (1 for an all-zero tensor; at most FLT_MAX), so that the largest values
// keep E4M3's full precision and none saturates. std::invalid_argument for a negative or
// non-finite `largest`.
float e4m3_scale(float largest);

// dst = src * scale rounded to the nearest E4M3 value (ties to even), saturating at +-448: on
// the host, for host views of the same shape (std::invalid_argument otherwise). The reference
// the device's quantisation is checked against.
void quantize_e4m3(const Matrix& src, float scale, const MatrixFp8& dst);

// Per-block scales (the per-block variant of the FP8 stage; DeepSeek-V3 trains with blocks of
// 1 x 128 for A and 128 x 128 for B): one scale per block of block_rows x block_cols elements,
// the blocks at the right and bottom edges cut short, each mapping its block's largest
// magnitude onto kE4m3Max as e4m3_scale does. An outlier then costs precision only in its
// own block.
struct BlockScales {
  int block_rows = 0;
  int block_cols = 0;
  int blocks_across = 0;  // blocks in a row of the matrix
  std::vector<float> scales;  // row-major over the blocks

  // The scale of the block holding element (row, col).
  float at(int row, int col) const {
    return scales[static_cast<std::size_t>(row / block_rows) * blocks_across + col / block_cols];
  }
};

// The scales of src's blocks; std::invalid_argument for a block size below 1 or a non-finite
// element.
BlockScales e4m3_block_scales(const Matrix& src, int block_rows, int block_cols);

// dst = src times its block's scale, rounded and saturated as quantize_e4m3.
void quantize_e4m3(const Matrix& src, const BlockScales& scales, const MatrixFp8& dst);

// C = (A / a_scale)(B / b_scale), m x n row-major, in double: each product of two E4M3 values
// is exact (and exact in FP32 too: 4 significant bits times 4 make at most 8), and the sum and
// the scales are applied in double. Host views; std::invalid_argument unless a.width ==
// b.height.
std::vector<double> reference_product_fp8(const MatrixFp8& a, float a_scale, const MatrixFp8& b,
                                          float b_scale);

// The same with per-block scales: each product A(m, k) B(k, n) divided by the scales of the
// blocks holding its two factors.
std::vector<double> reference_product_fp8(const MatrixFp8& a, const BlockScales& a_scales,
                                          const MatrixFp8& b, const BlockScales& b_scales);

}  // namespace ladder
