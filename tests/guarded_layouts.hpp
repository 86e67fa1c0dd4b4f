// The guarded layouts of the Part 4 tests (test_gemm_part4.cpp, test_gemm_fp8.cpp): operands
// and C placed inside larger NaN-filled device buffers, so that a read or a write outside a
// view shows.
#pragma once

#include "common/device_matrix.hpp"
#include "common/device_memory.hpp"
#include "common/host_matrix.hpp"

namespace ladder::test {

// Where an operand (BF16, E4M3) or the float C lives inside a larger device buffer, which starts
// all NaN as every owner does: guard rows above the view (row_offset) and below it
// (kGuardRowsBelow), guard columns left of it (col_offset) and right of it (the stride's columns
// past the view), all in the same allocation and directly next to the view. A store one element
// outside C's view lands on a guard cell, which written_outside counts; a read outside A's or B's
// view brings a NaN into C, which the check fails. Only the tight layout has no guard columns: its
// rows are the view's, so a row's cell past the end is the next row's first. A 16-byte row
// start needs the element offset and the stride to be multiples of 16 (E4M3), 8 (BF16) or 4
// (float).
struct Layout {
  const char* name;
  int row_offset;
  int col_offset;
  int (*stride)(int width);  // of the buffer, given the width it must hold (col_offset + view)
};

constexpr int kGuardRowsBelow = 1;

// A buffer (it starts all NaN) with room for a rows x cols view laid out as `layout`, and its
// guard cells. Buffer: DeviceMatrix, DeviceMatrixBf16 or DeviceMatrixFp8.
template <class Buffer>
Buffer guarded_buffer(const Layout& layout, int rows, int cols) {
  const int width = layout.col_offset + cols;
  return Buffer(layout.row_offset + rows + kGuardRowsBelow, width, layout.stride(width));
}

// The view inside such a buffer's view. View: Matrix, MatrixBf16 or MatrixFp8.
template <class View>
View view_in(View buffer, const Layout& layout, int rows, int cols) {
  return buffer.sub(layout.row_offset, layout.col_offset, rows, cols);
}

// The whole of a device buffer on the host: its guard cells and padding too.
inline HostMatrix download_whole(const DeviceMatrix& buffer) {
  const Matrix device = buffer.view();
  HostMatrix host(device.height, device.width, device.stride);
  copy_2d(whole_rows(host.view()), whole_rows(device), cudaMemcpyDeviceToHost);
  return host;
}

}  // namespace ladder::test
