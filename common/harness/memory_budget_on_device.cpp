#include <cuda_runtime.h>

#include "common/cuda_check.hpp"
#include "common/harness/memory_budget.hpp"

namespace ladder {

void require_device_memory(const std::string& problem, std::uint64_t bytes) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  check_memory_fits(problem, "GPU memory", bytes, free_bytes);
}

}  // namespace ladder
