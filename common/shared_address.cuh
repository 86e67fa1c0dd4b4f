// The address a PTX instruction names shared memory by (ldmatrix, cp.async, mbarrier, TMA,
// wgmma descriptors): the 32-bit offset in the block's shared window, not the generic pointer.
#pragma once

#include <cstdint>

namespace ladder {

__device__ inline std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

}  // namespace ladder
