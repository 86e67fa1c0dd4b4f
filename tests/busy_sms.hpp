// A GPU shared with another program's work: a kernel that holds all but a few SMs until
// released, so that a kernel launched meanwhile gets fewer SMs than its grid has blocks, as it
// would beside another process's kernel or under an MPS limit.
#pragma once

#include <cuda_runtime.h>

namespace ladder::test {

class BusySms {
 public:
  // Returns once every SM but `free_sms` runs one spinning block (each takes all the shared
  // memory a block may have, so nothing else fits beside it); throws CudaError if they do not
  // all start within seconds.
  explicit BusySms(int free_sms);
  ~BusySms();  // releases the blocks and waits for them
  BusySms(const BusySms&) = delete;
  BusySms& operator=(const BusySms&) = delete;

 private:
  void release() noexcept;

  int blocks_ = 0;
  int* host_flags_ = nullptr;  // [0]: released; [1 + b]: block b runs (mapped host memory)
  cudaStream_t stream_ = nullptr;
};

// Whether the work queued on the default stream finishes within `seconds`.
bool default_stream_finishes_within(double seconds);

}  // namespace ladder::test
