#include "07_transpose_shared/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Transpose baseline::transpose_shared() { return launch_transpose_shared; }

}  // namespace ladder
