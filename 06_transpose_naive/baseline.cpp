#include "06_transpose_naive/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Transpose baseline::transpose_naive() { return launch_transpose_naive; }

}  // namespace ladder
