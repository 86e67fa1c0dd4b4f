// Stage 21's rows around a TensorGemmBench: a launcher again after copying A, B and then both
// into rows of whole 128-byte lines inside the timed call, where their rows start off the
// lines (a TMA box row then spans five 32-byte sectors, not four): what the copy costs against
// the faster loads.
#pragma once

#include <string>

#include "common/harness/tensor_gemm_bench.hpp"

namespace ladder {

// Rows labelled `variant` and what was copied; none where A's and B's rows all start on lines.
void run_with_aligned_copies(TensorGemmBench& bench, const GemmShape& shape, Report& report,
                             const std::string& variant, const TensorGemmBench::Launch& launch);

}  // namespace ladder
