#include "common/device_matrix_bf16.hpp"

#include <stdexcept>
#include <string>

#include "common/device_memory.hpp"
#include "common/grid.hpp"

namespace ladder {
namespace {

struct RoundToBf16 {
  __device__ bf16 operator()(float x) const { return __float2bfloat16_rn(x); }
};

struct WidenToFloat {
  __device__ float operator()(bf16 x) const { return __bfloat162float(x); }
};

// One thread per element; dst's padding is left as it was.
template <class Source, class Destination, class Convert>
__global__ void convert_kernel(Source src, Destination dst, Convert convert) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < src.height && col < src.width) dst.set(row, col, convert(src.get(row, col)));
}

template <class Convert, class Source, class Destination>
void convert(const char* name, Source src, Destination dst) {
  if (src.width != dst.width || src.height != dst.height) {
    throw std::invalid_argument(std::string(name) + " needs src and dst of the same shape");
  }
  check_view(Matrix{src.width, src.height, src.stride, nullptr});  // the shapes only
  check_view(Matrix{dst.width, dst.height, dst.stride, nullptr});
  if (src.empty()) return;
  const dim3 block(32, 8);
  const dim3 grid = grid_covering(src.width, src.height, block.x, block.y);
  convert_kernel<<<grid, block>>>(src, dst, Convert{});
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void round_to_bf16(Matrix src, MatrixBf16 dst) {
  convert<RoundToBf16>("round_to_bf16", src, dst);
}

void widen_to_float(MatrixBf16 src, Matrix dst) {
  convert<WidenToFloat>("widen_to_float", src, dst);
}

}  // namespace ladder
