#include "common/harness/transposed_b.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/device_matrix.hpp"
#include "common/errors.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/matrix_owners.hpp"
#include "common/operand_path.hpp"

namespace ladder {
namespace {

// How the transpose is called, stage 08's: tiles of 32 by 8 rows of threads. Its grid covers
// B's k rows in tiles of 32, at most 65535 of them: the largest K whose B^T it writes.
constexpr int kTransposeTile = 32;
constexpr int kTransposeBlockRows = 8;
constexpr int kMaxTransposedK = 65535 * kTransposeTile;

DeviceMatrix b_t_workspace(const GemmShape& shape, int stride) {
  require_device_memory(shape.describe() + " (B^T workspace)",
                        sizeof(float) * static_cast<std::uint64_t>(shape.n) * stride);
  return DeviceMatrix(shape.n, shape.k, stride);  // shape checked by TransposedB::check
}

}  // namespace

struct TransposedB::State {
  DeviceMatrix b_t;
};

void TransposedB::check(const GemmShape& shape, int b_t_stride) {
  if (shape.k > kMaxTransposedK) {
    throw UsageError("the transposing variants take K up to " + std::to_string(kMaxTransposedK) +
                     ", the rows of B that stage 08's transpose covers in one grid");
  }
  try {
    check_matrix_shape(shape.n, shape.k, b_t_stride);
  } catch (const UsageError& error) {
    throw UsageError(
        std::string("the transposing variants need B^T (n x k, rows padded to 32 floats): ") +
        error.what());
  }
}

TransposedB::TransposedB(const GemmShape& shape, int b_t_stride)
    : state_(new State{b_t_workspace(shape, b_t_stride)}) {}

TransposedB::~TransposedB() = default;

OperandPath TransposedB::run(GemmBench& bench, Report& report, const std::string& variant,
                             const GemmPathLaunch& launch, baseline::Transpose transpose) {
  const Matrix b_t = state_->b_t.view();
  return bench.run_tf32_on_path(
      report, variant, Role::stage,
      [&](Matrix a, Matrix b, Matrix c) {
        if (transpose) transpose(b, b_t, kTransposeTile, kTransposeBlockRows);
        return launch(a, b_t, c);
      },
      path_name);
}

}  // namespace ladder
