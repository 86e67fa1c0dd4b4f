// What the program of a stage that divides tiles among blocks adds to its TensorStage
// (tensor_stage.hpp): launches that share one workspace, and a second timing of the default.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// A launcher of a stage's variants by name that returns the path it took.
using NamedBf16Launch =
    std::function<OperandPath(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c)>;

struct DividedStage {
  // Where the launches share a workspace (both set, or neither): its bytes, asked after the GPU
  // check and checked against the GPU's free memory, then launch_with_workspace, which
  // allocates it and returns the launcher over it (used in place of TensorStage::launch).
  std::uint64_t (*workspace_bytes)() = nullptr;
  std::function<NamedBf16Launch()> launch_with_workspace;
  // Time the default again after copying A and B to rows of whole 128-byte lines inside the
  // timed call, where their rows start off the lines (a TMA box row then spans five 32-byte
  // sectors, not four): what the copy costs against the faster loads.
  bool aligned_copies = false;
};

}  // namespace ladder
