// The warp-level machinery of stages 14 and 15: the PTX instructions (ldmatrix, mma.sync
// m16n8k16), the swizzled shared-memory layout of a slice of A and B, a warp's product of one
// slice, and the copies of a slice's chunks. Stage 14 fills the slices through registers, stage
// 15 with a cp.async ring.
#pragma once

#include <cstdint>
#include <cstring>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"
#include "common/shared_address.cuh"

namespace ladder::mma {

// ---- The instructions ------------------------------------------------------------------
// Four 8x8 BF16 matrices from shared memory: lanes 8i..8i+7 give the 8 row addresses (16
// bytes each) of matrix i; lane l receives row l/4, elements 2(l%4) and 2(l%4)+1 of each.
__device__ inline void ldmatrix_x4(std::uint32_t (&r)[4], const bf16* rows) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(rows)));
}

// The same, each matrix transposed on the way: B's slice is stored N-major (row k, columns n),
// and mma.sync wants each thread to hold two consecutive k of one column.
__device__ inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], const bf16* rows) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(rows)));
}

// d += a (16x16, row-major) * b (16x8, column-major) in FP32; BF16 operands, two per register.
__device__ inline void mma_16816(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                 std::uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// ---- The shared layout -----------------------------------------------------------------
// A slice of A is BlockM x 64 and one of B is 64 x BlockN, row-major, rows of 8 or more
// 16-byte chunks. Swizzled, chunk c of row r is stored at chunk c ^ (r % 8): the 8 rows an
// ldmatrix matrix reads at one chunk column then sit in 8 different chunk columns, which is
// all 32 banks once. Unswizzled (stage 14's ablation) they all sit in the same 4 banks.
constexpr int kSliceK = 64;
constexpr int kChunk = 8;  // BF16 elements per 16-byte chunk

template <bool Swizzle>
__device__ inline int chunk_at(int row, int chunk) {
  return Swizzle ? chunk ^ (row % 8) : chunk;
}

// ---- A warp's product of one slice ----------------------------------------------------
// The block is (BlockM / WarpM) x (BlockN / WarpN) warps; each warp owns a WarpM x WarpN tile
// of C as (WarpM/16) x (WarpN/8) mma tiles of 16x8, four FP32 accumulators per lane each.
template <int BlockM, int BlockN, int WarpM, int WarpN, bool Swizzle>
struct WarpTile {
  static constexpr bool kSwizzle = Swizzle;  // how the block must lay out its slices
  static constexpr int kWarpsN = BlockN / WarpN;
  static constexpr int kThreads = (BlockM / WarpM) * kWarpsN * 32;
  static constexpr int kTilesM = WarpM / 16;
  static constexpr int kTilesN = WarpN / 8;
  static constexpr int kSteps = kSliceK / 16;  // mma steps per slice
  static constexpr int kSliceElements = (BlockM + BlockN) * kSliceK;  // A's and B's
  static_assert(BlockN / kChunk >= 8, "a row of B must hold 8 chunks for the swizzle");
  static_assert(kTilesN % 2 == 0, "B fragments are read two n8 tiles at a time");

  using Accumulators = float[kTilesM][kTilesN][4];

  // Where this lane's ldmatrix rows are, computed once: the swizzle depends on the row only
  // through row % 8, which for every fragment this lane reads is lane % 8, so nothing of it
  // is recomputed in the loop (results/15_gpu_mma_pipelined/notes.md).
  int a_row;                 // element offset of this lane's row in the A slice
  int b_row;                 // and in the B slice
  int a_chunk[kSteps];       // swizzled column (elements) of A per 16-wide step of k
  int b_chunk[kTilesN / 2];  // swizzled column of B per pair of n8 tiles

  __device__ WarpTile(int warp, int lane) {
    const int warp_row = warp / kWarpsN * WarpM;
    const int warp_col = warp % kWarpsN * WarpN;
    const int half = lane / 16;  // lanes 16-31 address the second 8 columns (x4: matrices 2, 3)
    a_row = (warp_row + lane % 16) * kSliceK;
    b_row = (lane % 16) * BlockN;
    for (int s = 0; s < kSteps; ++s) a_chunk[s] = chunk_at<Swizzle>(lane, 2 * s + half) * kChunk;
    for (int j = 0; j < kTilesN / 2; ++j) {
      b_chunk[j] = chunk_at<Swizzle>(lane, warp_col / kChunk + 2 * j + half) * kChunk;
    }
  }

  // The operands of one 16-wide step of k: the warp's A fragments (16x16 each) and B
  // fragments (16x8 each).
  struct Fragments {
    std::uint32_t a[kTilesM][4];
    std::uint32_t b[kTilesN][2];
  };

  __device__ void load(const bf16* a_slice, const bf16* b_slice, int s, Fragments& f) const {
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
      ldmatrix_x4(f.a[i], a_slice + a_row + i * 16 * kSliceK + a_chunk[s]);
    }
#pragma unroll
    for (int j = 0; j < kTilesN / 2; ++j) {
      std::uint32_t pair[4];
      ldmatrix_x4_trans(pair, b_slice + b_row + s * 16 * BlockN + b_chunk[j]);
      f.b[2 * j][0] = pair[0];
      f.b[2 * j][1] = pair[1];
      f.b[2 * j + 1][0] = pair[2];
      f.b[2 * j + 1][1] = pair[3];
    }
  }

  __device__ static void multiply(const Fragments& f, Accumulators& acc) {
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
      for (int j = 0; j < kTilesN; ++j) mma_16816(acc[i][j], f.a[i], f.b[j][0], f.b[j][1]);
    }
  }

  // The whole slice. DoubleBuffered: step s + 1's fragments are loaded before step s's
  // products are issued, so the ldmatrix latency hides behind them (two sets of registers).
  template <bool DoubleBuffered = false>
  __device__ void multiply_slice(const bf16* a_slice, const bf16* b_slice, Accumulators& acc) const {
    if constexpr (DoubleBuffered) {
      Fragments f[2];
      load(a_slice, b_slice, 0, f[0]);
#pragma unroll
      for (int s = 0; s < kSteps; ++s) {
        if (s + 1 < kSteps) load(a_slice, b_slice, s + 1, f[(s + 1) % 2]);
        multiply(f[s % 2], acc);
      }
    } else {
#pragma unroll
      for (int s = 0; s < kSteps; ++s) {
        Fragments f;
        load(a_slice, b_slice, s, f);
        multiply(f, acc);
      }
    }
  }
};

// Lane l holds, of each 16x8 accumulator tile, rows l/4 and l/4 + 8, columns 2(l%4) and +1:
// two pairs of neighbours, written as one 8-byte store where C allows it.
template <class Tile>
__device__ void store_accumulators(Matrix c, int block_row, int block_col, int warp, int lane,
                                   const typename Tile::Accumulators& acc) {
  const int warp_row = block_row + warp / Tile::kWarpsN * (Tile::kTilesM * 16);
  const int warp_col = block_col + warp % Tile::kWarpsN * (Tile::kTilesN * 8);
  const bool pairs = allows_float2(c);
#pragma unroll
  for (int i = 0; i < Tile::kTilesM; ++i) {
#pragma unroll
    for (int j = 0; j < Tile::kTilesN; ++j) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int row = warp_row + i * 16 + lane / 4 + half * 8;
        const int col = warp_col + j * 8 + lane % 4 * 2;
        if (row >= c.height) continue;
        const float first = acc[i][j][2 * half];
        const float second = acc[i][j][2 * half + 1];
        if (pairs && col + 1 < c.width) {
          *reinterpret_cast<float2*>(&c.data[row * c.stride + col]) = make_float2(first, second);
        } else {
          if (col < c.width) c.set(row, col, first);
          if (col + 1 < c.width) c.set(row, col + 1, second);
        }
      }
    }
  }
}

// ---- Copying a slice into shared memory -------------------------------------------------
// Thread t copies, of an operand's slice (Rows x Width, Width / 8 chunks a row), chunk
// t % (Width / 8) of rows t / (Width / 8) + q * (Threads / (Width / 8)). `from` is the operand
// shifted to the slice's origin: its height and width say how much of the slice lies inside.
// copy(i, to, from, valid) moves this thread's i-th chunk (a compile-time index once unrolled,
// A's chunks first, then B's) from `from` to shared memory at `to`: `valid` of its 8 elements
// lie inside the operand (the rest must become zeros); where none does, `from` is the
// operand's first element, a readable address.
//
// Most slices lie wholly inside both operands. For them the copies are straight-line code with
// no bounds arithmetic: one uniform branch per operand and slice picks that version. (Choosing
// per chunk instead, stage 15 issued 638 instructions per warp and slice at 4096^3, 128 of them
// HMMA, the bounds checks among the rest: results/15_gpu_mma_pipelined/profile_4096.md.)
template <int Width, int Rows, bool Swizzle, int Threads, int FirstIndex, bool Inside, class Copy>
__device__ void copy_operand_chunks(bf16* slice, const MatrixBf16& from, const Copy& copy) {
  constexpr int kChunks = Width / kChunk;
  constexpr int kStep = Threads / kChunks;  // rows between one thread's chunks
  static_assert(Threads % kChunks == 0 && Rows % kStep == 0,
                "every thread copies whole columns of chunks, the same number each");
  const int chunk = threadIdx.x % kChunks;
  const int first_row = threadIdx.x / kChunks;
  const bf16* source = from.data + first_row * from.stride + chunk * kChunk;
  const int left_in_row = from.width - chunk * kChunk;  // elements of the row from this chunk on
#pragma unroll
  for (int q = 0; q < Rows / kStep; ++q) {
    const int row = first_row + q * kStep;
    bf16* to = slice + row * Width + chunk_at<Swizzle>(row, chunk) * kChunk;
    if constexpr (Inside) {
      copy(FirstIndex + q, to, source + q * kStep * from.stride, kChunk);
    } else {
      const int valid = row < from.height ? max(0, min(kChunk, left_in_row)) : 0;
      copy(FirstIndex + q, to, valid > 0 ? source + q * kStep * from.stride : from.data, valid);
    }
  }
}

template <int Width, int Rows, bool Swizzle, int Threads, int FirstIndex, class Copy>
__device__ void copy_operand_slice(bf16* slice, const MatrixBf16& from, const Copy& copy) {
  if (from.height >= Rows && from.width >= Width) {
    copy_operand_chunks<Width, Rows, Swizzle, Threads, FirstIndex, true>(slice, from, copy);
  } else {
    copy_operand_chunks<Width, Rows, Swizzle, Threads, FirstIndex, false>(slice, from, copy);
  }
}

template <int BlockM, int BlockN, int Threads, bool Swizzle, class Copy>
__device__ void copy_slice(bf16* a_slice, bf16* b_slice, const MatrixBf16& a, const MatrixBf16& b,
                           const Copy& copy) {
  copy_operand_slice<kSliceK, BlockM, Swizzle, Threads, 0>(a_slice, a, copy);
  copy_operand_slice<BlockN, kSliceK, Swizzle, Threads, BlockM * kSliceK / kChunk / Threads>(
      b_slice, b, copy);
}

// A chunk into registers: one 16-byte load when Vector and all 8 elements are inside, else the
// fallback both stages take where an operand's rows are not 16-byte aligned: `valid` 2-byte
// loads and zeros for the rest.
template <bool Vector>
__device__ inline uint4 load_chunk(const bf16* from, int valid) {
  if (Vector && valid == kChunk) return *reinterpret_cast<const uint4*>(from);
  bf16 values[kChunk];
#pragma unroll
  for (int i = 0; i < kChunk; ++i) values[i] = i < valid ? from[i] : __float2bfloat16(0.0f);
  // A local array of bf16 is copied out rather than read through a uint4 pointer, which would
  // read those objects as another type (strict aliasing lets the compiler assume it does not
  // happen). nvcc turns the 16-byte memcpy into register moves.
  uint4 chunk;
  memcpy(&chunk, values, sizeof chunk);
  return chunk;
}

}  // namespace ladder::mma
