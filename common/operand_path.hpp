// How a launcher's kernel moves its operands between global memory and the chip; the launchers
// return the path they took, and the programs print it.
#pragma once

namespace ladder {

enum class OperandPath {
  sixteen_byte,    // 16 bytes per access: float4, or 8 BF16 (sm_80 tensor cores)
  element,         // one element per access, with the same shared-memory layout and inner loop
  tma,             // whole tiles by TMA copies, named by tensor maps (Hopper)
  tma_after_copy,  // the same, after copying an operand's rows to 16-byte boundaries
};

// How the programs label the path: "TMA path", "scalar global path", ...
const char* path_name(OperandPath path);
// The Hopper stages' labels: the TMA paths as path_name's, any other path as the fallback to
// stage 15's kernel.
const char* tma_path_name(OperandPath path);

}  // namespace ladder
