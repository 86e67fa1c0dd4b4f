// The Hopper stages copy tiles with the tensor memory accelerator (TMA). A TMA
// copy names no addresses: it names a tensor map, a 128-byte descriptor of a matrix in global
// memory (base, sizes, row stride, the box one copy moves, the shared-memory layout to write),
// and the coordinates of a box. The driver encodes the map on the host; the kernel receives it
// as a __grid_constant__ parameter. Here the maps of BF16 operands and of C; the FP32 and E4M3
// operands' are in tensor_map_fp32.hpp and tensor_map_fp8.hpp.
#pragma once

#include <cuda.h>  // CUtensorMap and the encoding enums only: nothing from libcuda is linked

#include "common/matrix.hpp"

namespace ladder {

struct MatrixBf16;  // common/matrix_bf16.hpp

// A map over the row-major BF16 view m whose every copy moves a box of box_rows x box_cols
// elements into shared memory, in the 128-byte swizzled layout that wgmma reads. The parts of
// a box past m's edges arrive as zeros, so edge tiles need no code of their own.
// Needs allows_16_bytes(m): TMA takes 16-byte-aligned base addresses and row strides only (the
// launchers check the rows first and take their fallback where it is not OperandPath::tma), and
// a box of 8 to 64 columns (whole 16-byte chunks, a row within the 128-byte swizzle) by 1 to
// 256 rows; throws std::invalid_argument otherwise. Throws CudaError when the driver has no
// cuTensorMapEncodeTiled (older than CUDA 12.0) or refuses the map.
CUtensorMap make_tensor_map_2d(const MatrixBf16& m, int box_cols, int box_rows);

// Whether TMA can store into the FP32 view c without touching anything outside it. Stores
// are clipped at the matrix's edges, but along a row only in whole 16-byte chunks: where the
// width is not a multiple of 4 floats, the chunk holding the last column is written whole,
// over up to 3 floats of padding past it (measured on the H100: tests/test_gemm_part4.cpp
// caught it). So: allows_float4, and a width of whole chunks.
bool allows_tma_store(const Matrix& c);

// A map to store into the FP32 view c through: the 128-byte swizzle, allows_tma_store(c) and a
// box of 4 to 32 columns (a multiple of 4) by 1 to 256 rows, or std::invalid_argument.
CUtensorMap make_store_tensor_map_2d(const Matrix& c, int box_cols, int box_rows);

}  // namespace ladder
