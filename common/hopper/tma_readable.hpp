// An operand as TMA can read it. A tensor map steps from row to row by a multiple of 16 bytes,
// from a 16-byte-aligned start; a view whose rows are not so (an odd K in BF16, a K of 4095 in
// FP32, a view shifted by one element) is copied into rows of whole 128-byte lines, and the
// kernel reads the copy. One pass over the operand's bytes buys the TMA kernel instead of a
// kernel that loads element by element.
//
//   the caller's rows: |a0 ... a3499|b0 ...           7,000 bytes apart: no multiple of 16
//   the copy:          |a0 ... a3499 ..pad..|b0 ...   7,040 bytes apart: 55 lines of 128
#pragma once

#include <functional>

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

struct MatrixBf16;  // common/matrix_bf16.hpp
struct MatrixFp8;   // common/matrix_fp8.hpp

// c = a * b by `launch` on a and b as TMA can read them, each as it is or its copy (made and
// freed on the default stream, where the product is queued too). Where C is empty or K is 0,
// writes C's zeros (the empty sums) and launches nothing. Returns TMA, or TMA after a copy.
template <class View>
using ReadableLaunch = std::function<void(View a, View b)>;
OperandPath launch_on_readable_rows(Matrix a, Matrix b, Matrix c,
                                    const ReadableLaunch<Matrix>& launch);
OperandPath launch_on_readable_rows(MatrixBf16 a, MatrixBf16 b, Matrix c,
                                    const ReadableLaunch<MatrixBf16>& launch);
OperandPath launch_on_readable_rows(MatrixFp8 a, MatrixFp8 b, Matrix c,
                                    const ReadableLaunch<MatrixFp8>& launch);

}  // namespace ladder
