// TMA copies name no addresses: they name a tensor map, a 128-byte descriptor of a matrix in
// global memory (base, sizes, row stride, the box one copy moves, the shared-memory layout to
// write), and a box's coordinates. The driver encodes the map on the host; the kernel receives
// it as a __grid_constant__ parameter. Here BF16 operands' maps and C's; the FP32 and E4M3
// operands' are in tensor_map_fp32.hpp and tensor_map_fp8.hpp.
#pragma once

#include <cuda.h>  // CUtensorMap and the encoding enums only: nothing from libcuda is linked

#include "common/matrix.hpp"

namespace ladder {

struct MatrixBf16;  // common/matrix_bf16.hpp

// A map over the BF16 view m whose every copy moves a box of box_rows x box_cols elements into
// shared memory, in the 128-byte swizzle that wgmma reads; the parts of a box past m's edges
// arrive as zeros, so edge tiles need no code of their own. Needs allows_16_bytes(m) (TMA takes
// 16-byte-aligned starts and strides only) and a box of 8 to 64 columns by 1 to 256 rows, else
// std::invalid_argument; CudaError where the driver refuses the map.
CUtensorMap make_tensor_map_2d(const MatrixBf16& m, int box_cols, int box_rows);

// Whether TMA can store into the FP32 view c without touching anything outside it: stores are
// clipped at the edges, but along a row only in whole 16-byte chunks (a width that is not a
// multiple of 4 floats had up to 3 floats past it written: tests/test_gemm_part4.cpp caught it
// on the H100). So: allows_float4, and a width of whole chunks.
bool allows_tma_store(const Matrix& c);

// A map to store into the FP32 view c through: the 128-byte swizzle, allows_tma_store(c) and a
// box of 4 to 32 columns (a multiple of 4) by 1 to 256 rows, or std::invalid_argument.
CUtensorMap make_store_tensor_map_2d(const Matrix& c, int box_cols, int box_rows);

}  // namespace ladder
