#include "common/tensor_map.hpp"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000: the function's type, no symbol
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/aligned_access.hpp"
#include "common/errors.hpp"
#include "common/matrix_bf16.hpp"
#include "common/tensor_map_fp32.hpp"
#include "common/tensor_map_fp8.hpp"

namespace ladder {
namespace {

// The driver's encoder, looked up once per process through the runtime. Linking libcuda
// instead would tie every GPU program to the driver library: where only the toolkit's stub is
// installed (no GPU, CI), libcuda.so.1 does not exist at run time, and a program linked to it
// would not even start, where it must exit 77. 12000: the function as CUDA 12.0 defined it,
// the ABI that PFN_cuTensorMapEncodeTiled_v12000 describes.
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t status = cudaGetDriverEntryPointByVersion(
        "cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found);
    if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || function == nullptr) {
      throw CudaError(
          std::string("the driver has no cuTensorMapEncodeTiled (CUDA 12.0 or newer), which "
                      "TMA tensor maps need: cudaGetDriverEntryPointByVersion returned ") +
          cudaGetErrorName(status) + ", lookup result " + std::to_string(found));
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();  // a throw leaves it uninitialised: the next call asks again
  return encode;
}

// A row-major matrix as TMA sees it, whatever its element type.
struct Rows {
  const char* type;  // "BF16", "FP32", "E4M3": for messages
  CUtensorMapDataType encoding;
  int element_bytes;
  void* data;
  int width;
  int height;
  int stride;  // elements
};

// "300x200 BF16 view (stride 204 elements, 8 bytes past a 16-byte boundary), box 128x64":
// what a failure message says about the matrix.
std::string describe(const Rows& m, int box_cols, int box_rows) {
  return std::to_string(m.height) + "x" + std::to_string(m.width) + " " + m.type +
         " view (stride " + std::to_string(m.stride) + " elements, " +
         std::to_string(reinterpret_cast<std::uintptr_t>(m.data) % 16) +
         " bytes past a 16-byte boundary), box " + std::to_string(box_rows) + "x" +
         std::to_string(box_cols);
}

CUtensorMap encode(const Rows& m, bool allows_16_bytes, const char* rule, int box_cols,
                   int box_rows) {
  // TMA reads and writes rows at 16-byte-aligned addresses only: the base and the row stride
  // in bytes must both be multiples of 16 (`rule`: the test of every 16-byte path of Parts 3
  // and 4, and for C whole 16-byte chunks in a row too). A box row must be whole 16-byte
  // chunks, and with the 128-byte swizzle at most 128 bytes: the swizzle permutes the 16-byte
  // chunks within each 128-byte line.
  const int chunk = 16 / m.element_bytes;       // elements per 16-byte chunk
  const int widest = 128 / m.element_bytes;     // elements per 128-byte swizzle line
  const bool box_ok = box_cols > 0 && box_cols % chunk == 0 && box_cols <= widest &&
                      box_rows > 0 && box_rows <= 256;
  if (!allows_16_bytes || !box_ok || m.width < 1 || m.height < 1) {
    throw std::invalid_argument(
        "make_tensor_map_2d: " + describe(m, box_cols, box_rows) +
        ": a tensor map needs a 16-byte-aligned base and stride (" + rule + "), a box of " +
        std::to_string(chunk) + " to " + std::to_string(widest) + " columns (a multiple of " +
        std::to_string(chunk) + ") by 1 to 256 rows, and no empty dimension");
  }

  // Dimension 0 is the fastest-moving one: columns, then rows. The row stride is in bytes and
  // there is one fewer stride than dimensions (a column's step is the element size).
  const cuuint64_t size[2] = {static_cast<cuuint64_t>(m.width), static_cast<cuuint64_t>(m.height)};
  const cuuint64_t row_stride_bytes[1] = {static_cast<cuuint64_t>(m.stride) *
                                          static_cast<cuuint64_t>(m.element_bytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_step[2] = {1, 1};  // every element of the box, none skipped

  CUtensorMap map;
  const CUresult result = encode_tiled()(
      &map, m.encoding, 2, m.data, size, row_stride_bytes, box, element_step,
      // Rows as they are in memory (interleaving is for NC/xHWC-style image layouts).
      CU_TENSOR_MAP_INTERLEAVE_NONE,
      // The box sits in shared memory with each 16-byte chunk of a 128-byte line moved to
      // chunk (chunk XOR line % 8): the 128-byte swizzle that wgmma's shared-memory
      // descriptors name, so wgmma reads a tile as TMA wrote it, without bank conflicts (and
      // a kernel staging C for a TMA store writes it so, with the same benefit).
      CU_TENSOR_MAP_SWIZZLE_128B,
      // Fetch 256-byte L2 sectors: a box row of A or B is 128 bytes, and the box beside it
      // (the next K slice) is usually wanted next.
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      // Elements outside the matrix read as zero (not NaN), so a partial tile at any edge
      // multiplies as if the matrix were padded with zeros: no edge code in the kernels.
      // (Stores are clipped at the edges whatever this says.)
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw CudaError("cuTensorMapEncodeTiled failed with CUresult " +
                    std::to_string(static_cast<int>(result)) + " (cuda.h) for the " +
                    describe(m, box_cols, box_rows));
  }
  return map;
}

}  // namespace

CUtensorMap make_tensor_map_2d(const MatrixBf16& m, int box_cols, int box_rows) {
  return encode(Rows{"BF16", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, m.data, m.width, m.height,
                     m.stride},
                allows_16_bytes(m), "allows_16_bytes", box_cols, box_rows);
}

CUtensorMap make_tensor_map_2d(const Matrix& m, int box_cols, int box_rows) {
  return encode(Rows{"FP32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, m.data, m.width, m.height,
                     m.stride},
                allows_float4(m), "allows_float4", box_cols, box_rows);
}

CUtensorMap make_tensor_map_2d(const MatrixFp8& m, int box_cols, int box_rows) {
  return encode(Rows{"E4M3", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, m.data, m.width, m.height,
                     m.stride},
                allows_16_bytes(m), "allows_16_bytes", box_cols, box_rows);
}

bool allows_tma_store(const Matrix& c) { return allows_float4(c) && c.width % 4 == 0; }

CUtensorMap make_store_tensor_map_2d(const Matrix& c, int box_cols, int box_rows) {
  return encode(Rows{"FP32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, c.data, c.width, c.height,
                     c.stride},
                allows_tma_store(c), "allows_tma_store: a width of whole 16-byte chunks too",
                box_cols, box_rows);
}

}  // namespace ladder
