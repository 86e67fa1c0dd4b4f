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

namespace ladder {

// Frees device memory on the default stream, after the work queued there before it.
struct FreeOnDefaultStream {
  void operator()(void* data) const;
};
using DefaultStreamBuffer = std::unique_ptr<void, FreeOnDefaultStream>;

// Where the rows at `data` (width x height elements of element_bytes, `stride` apart) are not
// whole 16 bytes: their copy in rows of whole 128-byte lines (of 16 bytes, where lines would
// break the int rule of common/matrix.hpp), queued on the default stream, with `stride` set to
// the copy's. Else null, and `stride` as it was.
DefaultStreamBuffer copy_rows_for_tma(const void* data, int width, int height, int& stride,
                                      int element_bytes);

template <class View>
class TmaReadable {
 public:
  explicit TmaReadable(View m)
      : view_(m), copy_(copy_rows_for_tma(m.data, m.width, m.height, view_.stride,
                                          sizeof(*m.data))) {
    if (copy_) view_.data = static_cast<decltype(m.data)>(copy_.get());
  }
  View view() const { return view_; }
  bool copied() const { return copy_ != nullptr; }

 private:
  View view_;
  DefaultStreamBuffer copy_;
};

}  // namespace ladder
