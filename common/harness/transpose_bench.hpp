// The bench of the transpose stages: a random input on host and device, the timed runs, an
// exact check of every result, and the copy ceilings of the same run.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/harness/program.hpp"
#include "common/matrix.hpp"

namespace ladder {

// out (cols x rows) = transpose of in (rows x cols).
struct TransposeShape {
  int rows = 8192;
  int cols = 8192;
  std::string describe() const;  // "8192x8192 floats"
};
void add_transpose_shape(Cli& cli, TransposeShape& shape);

// --tile 32|16 and --layout one|four|both: tile x tile threads moving one element each, or
// tile x tile/4 threads moving four each (32x8, say).
struct TransposeLayout {
  std::string tile = "32";
  std::string layout = "both";
  int tile_size() const { return std::stoi(tile); }
  std::vector<int> block_rows() const;  // in the order the stages run them
};
void add_transpose_layout(Cli& cli, TransposeLayout& layout);
std::string layout_name(int tile, int block_rows);  // "tile 32, 32x8 threads"

class TransposeBench {
 public:
  using Launch = std::function<void(Matrix in, Matrix out)>;
  TransposeBench(const TransposeShape& shape, const RunOptions& options);
  ~TransposeBench();
  // Times `launch` (the output poisoned, and L2 flushed unless --l2 warm, before each run),
  // checks out == in^T bit for bit, adds a row.
  void run(Report& report, const std::string& variant, Role role, const Launch& launch);
  // A copy kernel of the same launch shape, checked out == in: straight through registers
  // (what a tiled kernel can reach), or through a shared-memory tile with the transposes'
  // barrier (what staging costs before any bank conflict).
  enum class Copy { direct, through_shared };
  void run_copy(Report& report, int tile, int block_rows, Copy copy = Copy::direct);
  // Device-to-device cudaMemcpy of the same bytes: the ceiling every ratio refers to.
  void run_memcpy(Report& report);
  // Two Role::transfer rows of a round trip from pinned host memory: upload, `launch`,
  // download, all on one stream one after the other; then in `bands` row bands (at most one
  // per row) whose uploads, transposes and downloads overlap. Each checked exactly.
  void run_round_trips(Report& report, const Launch& launch, int bands);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ladder
