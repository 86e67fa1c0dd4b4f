// Stage 21: stage 19's kernel walking parts of tiles (split-K, Stream-K), narrower tiles, and a
// model of their times that picks among them per shape. sm_90a only.
#pragma once

#include <string>
#include <vector>

#include "common/hopper/tile_model.hpp"
#include "common/hopper/tile_parts.hpp"
#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/operand_path.hpp"

namespace ladder {

// The variants by name: by_shape, the default, which picks one of the others per shape by a
// model (common/hopper/tile_model.hpp), then each tiling (128 x N or 64 x N tiles, clusters of 1
// or 2) with a division: dp (whole tiles, as stage 19), split or stream.
std::vector<std::string> stream_k_configs();

// The variants by_shape chooses among, as its model prices them: stream_k_configs() after
// by_shape, in that order.
std::vector<Candidate> stream_k_candidates();

// c = a * b on device views with the named variant, any sizes and strides. Where A's or B's rows
// are not whole 16 bytes, which TMA needs, the variant reads a copy of them in aligned rows
// (common/hopper/tma_readable.hpp) and the path is OperandPath::tma_after_copy, else
// OperandPath::tma. The errors as launch_gemm_tma_wgmma's, and std::invalid_argument for an
// unknown variant or a workspace made on another device.
OperandPath launch_gemm_stream_k(const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c,
                                 const StreamKWorkspace& workspace);

}  // namespace ladder
