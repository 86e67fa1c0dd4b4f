#include "common/device_probe.hpp"
#include "common/harness/program.hpp"

namespace ladder {

std::string require_gpu() { return require_device().describe(); }

}  // namespace ladder
