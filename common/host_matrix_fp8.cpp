#include "common/host_matrix_fp8.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ladder {
namespace {

// Per-tensor scaling as block scaling: one block over the whole height x width matrix.
BlockScales one_block(int height, int width, float scale) {
  return BlockScales{std::max(1, height), std::max(1, width), 1, {scale}};
}

}  // namespace

HostMatrixFp8::HostMatrixFp8(int height, int width)
    : width_(width),
      height_(height),
      elements_(static_cast<std::size_t>(height) * width, fp8_e4m3(0.0f)) {}

HostMatrixFp8 transposed(const MatrixFp8& src) {
  HostMatrixFp8 out(src.width, src.height);
  const MatrixFp8 to = out.view();
  for (int row = 0; row < src.height; ++row) {
    for (int col = 0; col < src.width; ++col) to.set(col, row, src.get(row, col));
  }
  return out;
}

float largest_magnitude(const Matrix& m) {
  float largest = 0.0f;
  for (int row = 0; row < m.height; ++row) {
    for (int col = 0; col < m.width; ++col) {
      const float x = m.get(row, col);
      if (!std::isfinite(x)) {
        throw std::invalid_argument("largest_magnitude: element (" + std::to_string(row) + ", " +
                                    std::to_string(col) + ") is not finite");
      }
      largest = std::fmax(largest, std::fabs(x));
    }
  }
  return largest;
}

BlockScales e4m3_block_scales(const Matrix& src, int block_rows, int block_cols) {
  if (block_rows < 1 || block_cols < 1) {
    throw std::invalid_argument("e4m3_block_scales: blocks of " + std::to_string(block_rows) +
                                " x " + std::to_string(block_cols) + " elements");
  }
  BlockScales out;
  out.block_rows = block_rows;
  out.block_cols = block_cols;
  out.blocks_across = (src.width + block_cols - 1) / block_cols;
  const int blocks_down = (src.height + block_rows - 1) / block_rows;
  for (int block_row = 0; block_row < blocks_down; ++block_row) {
    for (int block_col = 0; block_col < out.blocks_across; ++block_col) {
      const int row0 = block_row * block_rows;
      const int col0 = block_col * block_cols;
      const Matrix block = src.sub(row0, col0, std::min(block_rows, src.height - row0),
                                   std::min(block_cols, src.width - col0));
      out.scales.push_back(e4m3_scale(largest_magnitude(block)));
    }
  }
  return out;
}

float e4m3_scale(float largest) {
  if (!(largest >= 0.0f) || !std::isfinite(largest)) {
    throw std::invalid_argument("e4m3_scale: the largest magnitude must be finite and >= 0, not " +
                                std::to_string(largest));
  }
  // Capped at the largest float: below 448 / FLT_MAX the quotient would be infinite, and
  // zeros times infinity NaN.
  return largest == 0.0f ? 1.0f : std::fmin(kE4m3Max / largest, FLT_MAX);
}

void quantize_e4m3(const Matrix& src, float scale, const MatrixFp8& dst) {
  quantize_e4m3(src, one_block(src.height, src.width, scale), dst);
}

void quantize_e4m3(const Matrix& src, const BlockScales& scales, const MatrixFp8& dst) {
  if (src.width != dst.width || src.height != dst.height) {
    throw std::invalid_argument("quantize_e4m3: source and destination differ in shape");
  }
  for (int row = 0; row < src.height; ++row) {
    for (int col = 0; col < src.width; ++col) {
      dst.set(row, col, fp8_e4m3(src.get(row, col) * scales.at(row, col)));
    }
  }
}

std::vector<double> reference_product_fp8(const MatrixFp8& a, float a_scale, const MatrixFp8& b,
                                          float b_scale) {
  return reference_product_fp8(a, one_block(a.height, a.width, a_scale), b,
                               one_block(b.height, b.width, b_scale));
}

std::vector<double> reference_product_fp8(const MatrixFp8& a, const BlockScales& a_scales,
                                          const MatrixFp8& b, const BlockScales& b_scales) {
  if (a.width != b.height) {
    throw std::invalid_argument("reference_product_fp8: A has " + std::to_string(a.width) +
                                " columns, B " + std::to_string(b.height) + " rows");
  }
  std::vector<double> c(static_cast<std::size_t>(a.height) * b.width, 0.0);
  for (int row = 0; row < a.height; ++row) {
    for (int k = 0; k < a.width; ++k) {
      const double x = static_cast<float>(a.get(row, k)) / static_cast<double>(a_scales.at(row, k));
      for (int col = 0; col < b.width; ++col) {
        c[static_cast<std::size_t>(row) * b.width + col] +=
            x * static_cast<float>(b.get(k, col)) / static_cast<double>(b_scales.at(k, col));
      }
    }
  }
  return c;
}

}  // namespace ladder
