// TMA, the tensor memory accelerator: one thread asks the copy engine to move a whole box
// between global and shared memory, named by a tensor map (common/tensor_map.hpp) and the box's
// coordinates. Loads complete on an mbarrier; stores join bulk groups, which the storing thread
// waits on. One PTX instruction each.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only: nothing here calls the driver)

#include <cstdint>

#include "common/shared_address.cuh"

namespace ladder::hopper {

// Copies the box at element (col, row) of the map into shared memory and counts its bytes on
// `bar`. Parts of the box outside the matrix arrive as zeros (and still count).
__device__ inline void tma_load(void* to, const CUtensorMap* map, std::uint64_t* bar, int col,
                                int row) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%3, %4}], [%2];\n"
               :: "r"(shared_address(to)), "l"(map), "r"(shared_address(bar)), "r"(col), "r"(row)
               : "memory");
}
// The other way: the box at element (col, row) of the map is written from shared memory, the
// parts of it outside the matrix left alone. Asynchronous: it joins this thread's bulk group.
__device__ inline void tma_store(const CUtensorMap* map, const void* from, int col, int row) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n"
               :: "l"(map), "r"(shared_address(from)), "r"(col), "r"(row) : "memory");
}
__device__ inline void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
// Waits until every committed bulk store has read its shared memory (which may then be
// rewritten), or has completed altogether.
__device__ inline void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}
__device__ inline void bulk_wait_done() {
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}
// Orders this thread's ordinary shared-memory writes before later reads by the copy engine.
__device__ inline void fence_shared_for_tma() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

}  // namespace ladder::hopper
