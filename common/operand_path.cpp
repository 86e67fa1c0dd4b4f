#include "common/operand_path.hpp"

namespace ladder {

const char* path_name(OperandPath path) {
  switch (path) {
    case OperandPath::sixteen_byte: return "128-bit global path";
    case OperandPath::element: return "scalar global path";
    case OperandPath::tma: return "TMA path";
    case OperandPath::tma_after_copy: return "TMA path after a copy to aligned rows";
  }
  return "unknown path";  // not an enumerator: a value cast from an int
}

const char* tma_path_name(OperandPath path) {
  const bool tma = path == OperandPath::tma || path == OperandPath::tma_after_copy;
  return tma ? path_name(path) : "fallback to stage 15's scalar path";
}

}  // namespace ladder
