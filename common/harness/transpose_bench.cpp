#include "common/harness/transpose_bench.hpp"

#include "common/harness/tiled_copy.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/memory_budget.hpp"

namespace ladder {
namespace {

// Checked before the members allocate: the input, the output and the copy, on the host and
// on the GPU.
const TransposeShape& fits_in_memory(const TransposeShape& shape) {
  const std::uint64_t bytes = 3 * sizeof(float) * static_cast<std::uint64_t>(shape.rows) *
                              static_cast<std::uint64_t>(shape.cols);
  require_host_memory(shape.describe(), bytes);
  require_device_memory(shape.describe(), bytes);
  return shape;
}

}  // namespace

TransposeBench::TransposeBench(const TransposeShape& shape, const RunOptions& options)
    : shape_(fits_in_memory(shape)),
      options_(options),
      in_host_(shape.rows, shape.cols),
      out_host_(shape.cols, shape.rows),
      copy_host_(shape.rows, shape.cols),
      in_(shape.rows, shape.cols),
      out_(shape.cols, shape.rows),
      copy_(shape.rows, shape.cols) {
  fill_random(in_host_.view(), options.seed);
  in_.upload(in_host_.view());
  if (options.flush_l2()) l2_flush_ = std::make_unique<L2Flush>();
}

TransposeBench::~TransposeBench() = default;

Measurement TransposeBench::time(const std::string& variant, Role role, DeviceMatrix& out,
                                 const Launch& launch) {
  Measurement row;
  row.variant = variant;
  row.role = role;
  row.unit = "GB/s";
  // Every element read once and written once.
  row.work = 2.0 * sizeof(float) * shape_.rows * static_cast<double>(shape_.cols);
  row.l2 = options_.l2;
  // The flush comes last: poisoning the output would bring its lines back into L2.
  row.timing = measure_gpu(
      options_.repeats, [&] { launch(in_.view(), out.view()); },
      [&] {
        out.poison();
        if (l2_flush_) (*l2_flush_)();
      });
  return row;
}

void TransposeBench::run(Report& report, const std::string& variant, Role role,
                         const Launch& launch) {
  Measurement row = time(variant, role, out_, launch);
  out_.download(out_host_.view());
  row.check = check_transpose(in_host_.view(), out_host_.view());
  report.add(row);
}

void TransposeBench::run_copy(Report& report, int tile, int block_rows, Copy copy) {
  const bool shared = copy == Copy::through_shared;
  const std::string name = shared ? "copy via shared tile, " : "copy kernel, ";
  Measurement row = time(name + layout_name(tile, block_rows), Role::ceiling, copy_,
                         [&](Matrix in, Matrix out) {
                           if (shared) {
                             launch_shared_copy(in, out, tile, block_rows);
                           } else {
                             launch_tiled_copy(in, out, tile, block_rows);
                           }
                         });
  copy_.download(copy_host_.view());
  row.check = check_copy(in_host_.view(), copy_host_.view());
  report.add(row);
}

void TransposeBench::run_memcpy(Report& report) {
  Measurement row = time("cudaMemcpy device to device", Role::ceiling, copy_,
                         [](Matrix in, Matrix out) {
                           const std::size_t bytes =
                               sizeof(float) * in.stride * static_cast<std::size_t>(in.height);
                           CUDA_CHECK(cudaMemcpy(out.data, in.data, bytes, cudaMemcpyDeviceToDevice));
                         });
  copy_.download(copy_host_.view());
  row.check = check_copy(in_host_.view(), copy_host_.view());
  report.add(row);
}

}  // namespace ladder
