// An operand as TMA can read it. A tensor map steps from row to row by a multiple of 16 bytes,
// from a 16-byte-aligned start; a view whose rows are not so (an odd K in BF16, a K of 4095 in
// FP32, a view shifted by one element) is copied into rows of whole 128-byte lines, and the
// kernel reads the copy. One pass over the operand's bytes buys the TMA kernel instead of a
// kernel that loads element by element.
//
//   the caller's rows: |a0 ... a3499|b0 ...           7,000 bytes apart: no multiple of 16
//   the copy:          |a0 ... a3499 ..pad..|b0 ...   7,040 bytes apart: 55 lines of 128
//
// The copy is allocated, made and freed on the default stream, where the product is queued too,
// so it is freed only after the product has read it.
#pragma once

#include <memory>
#include <utility>

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// Frees device memory on the default stream, after the work queued there before it.
struct FreeOnDefaultStream {
  void operator()(void* data) const;
};

// A copy of an operand's rows and its stride in elements.
struct RowsCopy {
  std::unique_ptr<void, FreeOnDefaultStream> data;
  int stride = 0;
};

// Where the rows at `data` (width x height elements of element_bytes, `stride` apart) are not
// whole 16 bytes: their copy in rows of whole 128-byte lines (of 16 bytes, where lines would
// break the int rule of common/matrix.hpp), queued on the default stream, from a pool of the
// copies' own that keeps its memory between calls. Else no copy (data null).
RowsCopy copy_rows_for_tma(const void* data, int width, int height, int stride,
                           int element_bytes);

template <class View>
class TmaReadable {
 public:
  explicit TmaReadable(View m) : view_(m) {
    RowsCopy copy = copy_rows_for_tma(m.data, m.width, m.height, m.stride, sizeof(*m.data));
    if (copy.data == nullptr) return;
    view_.data = static_cast<decltype(m.data)>(copy.data.get());
    view_.stride = copy.stride;
    copy_ = std::move(copy.data);
  }
  View view() const { return view_; }
  bool copied() const { return copy_ != nullptr; }

 private:
  View view_;
  std::unique_ptr<void, FreeOnDefaultStream> copy_;
};

// Where C is empty or K is 0, writes C's zeros (the empty sums) and returns true: nothing is
// left to multiply.
bool write_empty_product(Matrix c, int k);

// c = a * b by `launch(a, b)` on the operands as TMA can read them; the path: TMA, or TMA after
// a copy. The launchers of the Hopper stages whose operands may have any rows.
template <class View, class Launch>
OperandPath launch_on_readable_rows(View a, View b, Matrix c, Launch launch) {
  if (write_empty_product(c, a.width)) return OperandPath::tma;
  const TmaReadable<View> a_rows(a);
  const TmaReadable<View> b_rows(b);
  launch(a_rows.view(), b_rows.view());
  return a_rows.copied() || b_rows.copied() ? OperandPath::tma_after_copy : OperandPath::tma;
}

}  // namespace ladder
