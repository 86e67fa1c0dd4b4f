// How a launcher's kernel moves its operands between global memory and the chip; the launchers
// return the path they took, and the programs print it. 128-bit global accesses (float4, one
// LDG.128 or STG.128 per thread) move four floats in one instruction, but only from an address
// that is a multiple of 16 bytes: for a matrix, its data pointer and every row start. The
// float4 and sm_80 tensor-core stages fall back to one element per access where that does not
// hold (the latter copy 8 BF16 per 16 bytes, matrix_bf16.hpp); the BF16 Hopper stages copy
// whole tiles with TMA, which needs the same alignment, and fall back to stage 15's kernel
// without it.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "common/matrix.hpp"

namespace ladder {

enum class OperandPath {
  sixteen_byte,  // 16 bytes per access: float4, or 8 BF16 (sm_80 tensor cores)
  element,       // one element per access, with the same shared-memory layout and inner loop
  tma,           // whole tiles by TMA copies, named by tensor maps (Hopper)
  tma_after_copy,  // the same, after copying an operand's rows to 16-byte boundaries
};

// How the programs label the path. (The Hopper stages label theirs with tma_path_name.)
inline const char* path_name(OperandPath path) {
  switch (path) {
    case OperandPath::sixteen_byte: return "128-bit global path";
    case OperandPath::element: return "scalar global path";
    case OperandPath::tma: return "TMA path";
    case OperandPath::tma_after_copy: return "TMA path after a copy to aligned rows";
  }
  return "unknown path";  // not an enumerator: a value cast from an int
}

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

}  // namespace ladder
