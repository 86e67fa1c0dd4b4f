// The kernels that work in tiles are templates over the tile size: the compiler needs it
// as a constant to size shared memory and unroll loops. A size chosen at run time (a
// command-line option) must therefore pick one of a fixed list of instantiations. These
// two tables are that list, one per family of stages, written once.
//
// A launcher passes a generic lambda; the table calls it with the sizes as
// std::integral_constant values, which convert to int at compile time, so the lambda can
// name the instantiation directly:
//   const auto kernel = transpose_layouts(tile, block_rows, [](auto TILE, auto BLOCK_ROWS) {
//     return transpose_naive<TILE, BLOCK_ROWS>;
//   });
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

namespace ladder {

template <int N>
using Size = std::integral_constant<int, N>;

// The matrix-product tiles of stages 04 and 05: tile x tile threads, tile 8, 16 or 32.
// Returns pick(Size<TILE>{}); throws std::invalid_argument for any other tile.
template <class Pick>
auto gemm_tiles(int tile, Pick pick) {
  switch (tile) {
    case 8: return pick(Size<8>{});
    case 16: return pick(Size<16>{});
    case 32: return pick(Size<32>{});
  }
  throw std::invalid_argument("tile must be 8, 16 or 32, got " + std::to_string(tile));
}

// The transpose stages' layouts and their copy yardstick: tile x tile elements per
// block, moved by tile x block_rows threads. block_rows == tile moves one element per
// thread, block_rows == tile / 4 four. Returns pick(Size<TILE>{}, Size<BLOCK_ROWS>{});
// throws std::invalid_argument naming the pair for anything else.
template <class Pick>
auto transpose_layouts(int tile, int block_rows, Pick pick) {
  if (tile == 32 && block_rows == 32) return pick(Size<32>{}, Size<32>{});
  if (tile == 32 && block_rows == 8) return pick(Size<32>{}, Size<8>{});
  if (tile == 16 && block_rows == 16) return pick(Size<16>{}, Size<16>{});
  if (tile == 16 && block_rows == 4) return pick(Size<16>{}, Size<4>{});
  throw std::invalid_argument("no transpose layout for tile " + std::to_string(tile) +
                              " with " + std::to_string(block_rows) +
                              " block rows: the layouts are 32x32, 32x8, 16x16 and 16x4");
}

}  // namespace ladder
