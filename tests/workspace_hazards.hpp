// What a launch over a shared workspace must survive, for the tests of the stages that divide
// tiles: a workspace an earlier launch left dirty, and a GPU another kernel mostly holds.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "busy_sms.hpp"
#include "common/cuda_check.hpp"
#include "common/hopper/tile_parts.hpp"
#include "common/matrix_owners.hpp"

namespace ladder::test {

// The largest value in any of the workspace's flags, once the GPU is idle.
inline int largest_flag(const StreamKWorkspace& workspace) {
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> flags(workspace.flag_count());
  CUDA_CHECK(cudaMemcpy(flags.data(), workspace.flags(), flags.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  return *std::max_element(flags.begin(), flags.end());
}

// Leaves the workspace as a launch killed or faulted mid-way could: every flag holds the
// largest value the launch before left in any flag (what a launch that saved every part and
// finished no tile would leave), at least 1, and every partial sum is NaN. Returns that value.
// The next launch must neither take those flags for its own nor add those sums, and sets its
// own, numbered past it.
inline int dirty_workspace(const StreamKWorkspace& workspace) {
  const int left = std::max(1, largest_flag(workspace));
  const std::vector<int> flags(workspace.flag_count(), left);
  CUDA_CHECK(cudaMemcpy(workspace.flags(), flags.data(), flags.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(workspace.partials(), kPoisonByte, workspace.partial_bytes()));
  return left;
}

// Whether `launch`, run to the end, then run again over the workspace its leftovers were made
// dirty in (dirty_workspace), numbers the second run's parts past the dirty flags. The second
// run's C is the caller's to check.
inline bool relaunch_numbers_past_dirty_flags(const StreamKWorkspace& workspace,
                                              const std::function<void()>& launch) {
  launch();
  const int left = dirty_workspace(workspace);
  launch();
  return largest_flag(workspace) > left;
}

// Whether `launch` finishes while a kernel holds every SM but one (BusySms), so that its blocks
// run one at a time, in order. It runs once before: a kernel's first launch loads its code
// (CUDA's lazy loading), which waits for an idle GPU, beside the spinning kernel for ever.
inline bool finishes_beside_busy_sms(const std::function<void()>& launch) {
  launch();
  CUDA_CHECK(cudaDeviceSynchronize());
  bool finished = false;
  {
    BusySms busy(1);
    launch();
    finished = default_stream_finishes_within(20.0);
  }  // the spinning blocks end here, so a hung product ends too
  return finished;
}

}  // namespace ladder::test
