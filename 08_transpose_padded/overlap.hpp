// The article's remark on overlapping transfers with computation, measured: a transpose
// that starts and ends in host memory, done serially and as a pipeline of row bands.
#pragma once

#include "common/harness/options.hpp"
#include "common/harness/report.hpp"

namespace ladder {

// Adds two Role::transfer rows, each host -> device, stage 08's transpose (tile,
// block_rows), device -> host of the whole matrix from and to pinned host memory, checked
// exactly: first all on one stream, one step after the other; then split into `bands` row
// bands (at most one per row) whose uploads, transposes and downloads overlap.
void run_round_trips(Report& report, const TransposeShape& shape, const RunOptions& options,
                     int tile, int block_rows, int bands);

}  // namespace ladder
