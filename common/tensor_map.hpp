// Part 4's Hopper stages (16-18) copy tiles with the tensor memory accelerator (TMA). A TMA
// copy names no addresses: it names a tensor map, a 128-byte descriptor of a matrix in global
// memory (base, sizes, row stride, the box one copy moves, the shared-memory layout to write),
// and the coordinates of a box. The driver encodes the map on the host; the kernel receives it
// as a __grid_constant__ parameter.
#pragma once

#include <cuda.h>  // CUtensorMap and the encoding enums only: nothing from libcuda is linked

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/matrix_fp8.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// A map over the row-major BF16 view m whose every copy moves a box of box_rows x box_cols
// elements into shared memory, in the 128-byte swizzled layout that wgmma reads. The parts of
// a box past m's edges arrive as zeros, so edge tiles need no code of their own.
// Needs allows_16_bytes(m): TMA takes 16-byte-aligned base addresses and row strides only (the
// launchers ask tma_path first and take their fallback where it is not OperandPath::tma), and
// a box of 8 to 64 columns (whole 16-byte chunks, a row within the 128-byte swizzle) by 1 to
// 256 rows; throws std::invalid_argument otherwise. Throws CudaError when the driver has no
// cuTensorMapEncodeTiled (older than CUDA 12.0) or refuses the map.
CUtensorMap make_tensor_map_2d(const MatrixBf16& m, int box_cols, int box_rows);

// Whether TMA can store into the FP32 view c without touching anything outside it. Stores
// are clipped at the matrix's edges, but along a row only in whole 16-byte chunks: where the
// width is not a multiple of 4 floats, the chunk holding the last column is written whole,
// over up to 3 floats of padding past it (measured on the H100: tests/test_gemm_part4.cpp
// caught it). So: allows_float4, and a width of whole chunks.
inline bool allows_tma_store(const Matrix& c) { return allows_float4(c) && c.width % 4 == 0; }

// The same over an FP32 view, to load from (A and B^T of stage 18's TF32 variant): the 128-byte
// swizzle on the shared-memory side, allows_float4(m) and a box of 4 to 32 columns (a multiple
// of 4) by 1 to 256 rows, or std::invalid_argument.
CUtensorMap make_tensor_map_2d(const Matrix& m, int box_cols, int box_rows);

// The same over an E4M3 view (stage 20's A and B^T): allows_16_bytes(m) and a box of 16 to 128
// columns (a multiple of 16) by 1 to 256 rows, or std::invalid_argument.
CUtensorMap make_tensor_map_2d(const MatrixFp8& m, int box_cols, int box_rows);

// A map to store into C through (stage 18's epilogue): the same, and allows_tma_store(c).
CUtensorMap make_store_tensor_map_2d(const Matrix& c, int box_cols, int box_rows);

}  // namespace ladder
