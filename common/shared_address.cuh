// The address a PTX instruction names shared memory by: the 32-bit offset in the block's
// shared window, not the generic 64-bit pointer C++ holds. Every instruction the tensor-core
// stages write as inline PTX takes it (ldmatrix, cp.async, mbarrier, TMA, wgmma descriptors).
#pragma once

#include <cstdint>

namespace ladder {

__device__ inline std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

}  // namespace ladder
