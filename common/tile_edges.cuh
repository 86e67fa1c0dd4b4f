// Device helpers of the tiled kernels (stages 04 and 05): a block of a matrix cut at the
// matrix's edge, and a load that gives 0 outside it. Together they let every size work.
#pragma once

#include "common/matrix.hpp"

namespace ladder {

// The rows x cols block of m whose top-left element is (row, col), cut short where m
// ends. (row, col) must lie inside m; the grid guarantees that for every tile we take.
__device__ inline Matrix clipped_sub(Matrix m, int row, int col, int rows, int cols) {
  return m.sub(row, col, min(rows, m.height - row), min(cols, m.width - col));
}

// m(row, col), or 0 past m's edge: a zero adds nothing to a dot product, so the tiles that
// overhang A and B need no special case in the product loop, and padding is never read.
__device__ inline float get_or_zero(Matrix m, int row, int col) {
  return row < m.height && col < m.width ? m.get(row, col) : 0.0f;
}

}  // namespace ladder
