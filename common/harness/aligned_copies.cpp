#include "common/harness/aligned_copies.hpp"

#include <cstdint>

#include "common/device_matrix_bf16.hpp"
#include "common/device_memory.hpp"
#include "common/harness/memory_budget.hpp"

namespace ladder {
namespace {

bool rows_on_lines(const MatrixBf16& m) {
  return m.stride * sizeof(bf16) % 128 == 0 && reinterpret_cast<std::uintptr_t>(m.data) % 128 == 0;
}

}  // namespace

void run_with_aligned_copies(TensorGemmBench& bench, const GemmShape& shape, Report& report,
                             const std::string& variant, const TensorGemmBench::Launch& launch) {
  if (rows_on_lines(bench.a()) && rows_on_lines(bench.b())) return;
  const int a_stride = (shape.k + 63) / 64 * 64;
  const int b_stride = (shape.n + 63) / 64 * 64;
  require_device_memory(shape.describe() + " (copies of A and B in 128-byte rows)",
                        sizeof(bf16) * (static_cast<std::uint64_t>(shape.m) * a_stride +
                                        static_cast<std::uint64_t>(shape.k) * b_stride));
  DeviceMatrixBf16 a_lines(shape.m, shape.k, a_stride);
  DeviceMatrixBf16 b_lines(shape.k, shape.n, b_stride);
  for (const int copies : {1, 2, 3}) {  // bit 0: A, bit 1: B
    const bool copy_a = copies & 1;
    const bool copy_b = copies & 2;
    const std::string what = copies == 3 ? "A and B" : copy_a ? "A" : "B";
    bench.run(report, variant + ", " + what + " copied to 128-byte rows in the call", Role::stage,
              [&](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                if (copy_a) copy_2d(a_lines.view(), a, cudaMemcpyDeviceToDevice);
                if (copy_b) copy_2d(b_lines.view(), b, cudaMemcpyDeviceToDevice);
                launch(copy_a ? a_lines.view() : a, copy_b ? b_lines.view() : b, c);
              });
  }
}

}  // namespace ladder
