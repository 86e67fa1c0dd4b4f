// 128-bit global accesses (float4, one LDG.128 or STG.128 per thread) move four floats in one
// instruction, but only from an address that is a multiple of 16 bytes. For a matrix that
// means its data pointer and every row start: the stride must be a multiple of 4 floats.
// Stages 10-12 check this and fall back to 4-byte accesses where it does not hold.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "common/matrix.hpp"

namespace ladder {

// Which global-memory path a launcher took; the programs print it beside their results.
enum class GlobalAccess {
  vector,  // 16-byte loads and stores (float4)
  scalar,  // 4-byte loads and stores: same shared-memory layout and inner loop
};

inline const char* path_name(GlobalAccess access) {
  return access == GlobalAccess::vector ? "128-bit global path" : "scalar global path";
}

// True when every row of m starts on a 16-byte boundary, so (row, col) with col % 4 == 0
// can be read or written as one float4.
inline bool allows_float4(const Matrix& m) {
  return reinterpret_cast<std::uintptr_t>(m.data) % 16 == 0 && m.stride % 4 == 0;
}

// The 128-bit path when every operand a kernel moves 16 bytes at a time allows it.
inline GlobalAccess float4_path(std::initializer_list<Matrix> operands) {
  for (const Matrix& m : operands) {
    if (!allows_float4(m)) return GlobalAccess::scalar;
  }
  return GlobalAccess::vector;
}

}  // namespace ladder
