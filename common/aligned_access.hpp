// Whether a matrix allows 16-byte accesses. 128-bit global accesses (float4, one LDG.128 or
// STG.128 per thread) move four floats in one instruction, but only from an address that is a
// multiple of 16 bytes: for a matrix, its data pointer and every row start. The float4 and
// sm_80 tensor-core stages fall back to one element per access where that does not hold (the
// latter copy 8 BF16 per 16 bytes).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "common/matrix.hpp"
#include "common/operand_path.hpp"

namespace ladder {

struct MatrixBf16;  // common/matrix_bf16.hpp, which CPU-only builds cannot include

// True when every row of m starts on a 16-byte boundary, so (row, col) with col % 4 == 0
// can be read or written as one float4.
inline bool allows_float4(const Matrix& m) {
  return reinterpret_cast<std::uintptr_t>(m.data) % 16 == 0 && m.stride % 4 == 0;
}

// The 16-byte path when every operand a kernel moves 16 bytes at a time allows it, else the
// element path.
inline OperandPath float4_path(std::initializer_list<Matrix> operands) {
  for (const Matrix& m : operands) {
    if (!allows_float4(m)) return OperandPath::element;
  }
  return OperandPath::sixteen_byte;
}

// The same rule for the sm_80 tensor-core stages, which copy 8 BF16 at a time: the 16-byte path
// when every operand allows_16_bytes, else the element path (both in matrix_bf16.hpp/.cpp).
OperandPath sixteen_byte_path(std::initializer_list<MatrixBf16> operands);

}  // namespace ladder
