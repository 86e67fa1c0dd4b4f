#include "08_transpose_padded/kernel.hpp"
#include "common/baselines.hpp"

namespace ladder {

baseline::Transpose baseline::transpose_padded() { return launch_transpose_padded; }

}  // namespace ladder
