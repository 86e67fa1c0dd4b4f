#include "common/harness/transpose_bench.hpp"

#include <algorithm>
#include <vector>

#include "common/device_matrix.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/report.hpp"
#include "common/harness/tiled_copy.hpp"
#include "common/host_matrix.hpp"
#include "common/matrix_owners.hpp"

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

void copy_async(Matrix to, Matrix from, cudaMemcpyKind kind, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpy2DAsync(to.data, sizeof(float) * to.stride, from.data,
                               sizeof(float) * from.stride, sizeof(float) * to.width, to.height,
                               kind, stream));
}

}  // namespace

struct TransposeBench::State {
  TransposeShape shape;
  RunOptions options;
  HostMatrix in_host;
  HostMatrix out_host;   // cols x rows
  HostMatrix copy_host;  // rows x cols
  DeviceMatrix in;
  DeviceMatrix out;
  DeviceMatrix copy;
  std::unique_ptr<L2Flush> l2_flush;  // null unless options.l2 is "flushed"

  State(const TransposeShape& problem, const RunOptions& run)
      : shape(fits_in_memory(problem)),
        options(run),
        in_host(problem.rows, problem.cols),
        out_host(problem.cols, problem.rows),
        copy_host(problem.rows, problem.cols),
        in(problem.rows, problem.cols),
        out(problem.cols, problem.rows),
        copy(problem.rows, problem.cols) {
    fill_random(in_host.view(), run.seed);
    in.upload(in_host.view());
    if (run.flush_l2()) l2_flush = std::make_unique<L2Flush>();
  }

  Measurement time(const std::string& variant, Role role, DeviceMatrix& to, const Launch& launch);
};

TransposeBench::TransposeBench(const TransposeShape& shape, const RunOptions& options)
    : state_(std::make_unique<State>(shape, options)) {}

TransposeBench::~TransposeBench() = default;

Measurement TransposeBench::State::time(const std::string& variant, Role role, DeviceMatrix& to,
                                        const Launch& launch) {
  Measurement row;
  row.variant = variant;
  row.role = role;
  row.unit = "GB/s";
  // Every element read once and written once.
  row.work = 2.0 * sizeof(float) * shape.rows * static_cast<double>(shape.cols);
  row.l2 = options.l2;
  // The flush comes last: poisoning the output would bring its lines back into L2.
  row.timing = measure_gpu(
      options.repeats, [&] { launch(in.view(), to.view()); },
      [&] {
        to.poison();
        if (l2_flush) (*l2_flush)();
      });
  return row;
}

void TransposeBench::run(Report& report, const std::string& variant, Role role,
                         const Launch& launch) {
  Measurement row = state_->time(variant, role, state_->out, launch);
  state_->out.download(state_->out_host.view());
  row.check = check_transpose(state_->in_host.view(), state_->out_host.view());
  report.add(row);
}

void TransposeBench::run_copy(Report& report, int tile, int block_rows, Copy copy) {
  const bool shared = copy == Copy::through_shared;
  const std::string name = shared ? "copy via shared tile, " : "copy kernel, ";
  Measurement row = state_->time(name + layout_name(tile, block_rows), Role::ceiling, state_->copy,
                                 [&](Matrix in, Matrix out) {
                                   if (shared) {
                                     launch_shared_copy(in, out, tile, block_rows);
                                   } else {
                                     launch_tiled_copy(in, out, tile, block_rows);
                                   }
                                 });
  state_->copy.download(state_->copy_host.view());
  row.check = check_copy(state_->in_host.view(), state_->copy_host.view());
  report.add(row);
}

void TransposeBench::run_memcpy(Report& report) {
  Measurement row = state_->time(
      "cudaMemcpy device to device", Role::ceiling, state_->copy, [](Matrix in, Matrix out) {
        const std::size_t bytes = sizeof(float) * in.stride * static_cast<std::size_t>(in.height);
        CUDA_CHECK(cudaMemcpy(out.data, in.data, bytes, cudaMemcpyDeviceToDevice));
      });
  state_->copy.download(state_->copy_host.view());
  row.check = check_copy(state_->in_host.view(), state_->copy_host.view());
  report.add(row);
}

void TransposeBench::run_round_trips(Report& report, const Launch& launch, int bands) {
  const int rows = state_->shape.rows;
  const int cols = state_->shape.cols;
  const RunOptions& options = state_->options;
  bands = std::min(bands, rows);
  PinnedMatrix in_host(rows, cols);
  PinnedMatrix out_host(cols, rows);
  fill_random(in_host.view(), options.seed);
  DeviceMatrix in(rows, cols);
  DeviceMatrix out(cols, rows);

  const auto serial = [&] {
    copy_async(in.view(), in_host.view(), cudaMemcpyHostToDevice, nullptr);
    launch(in.view(), out.view());
    copy_async(out_host.view(), out.view(), cudaMemcpyDeviceToHost, nullptr);
  };

  // Band b is rows [first(b), first(b + 1)) of `in`: contiguous there, and the same range of
  // columns in `out`. Uploads queue in order on one stream, downloads on another, transposes
  // on the default stream, so band b's download, band b + 1's transpose and band b + 2's
  // upload can all run at once on the two copy engines and the SMs.
  const auto first = [&](int band) {
    return static_cast<int>(static_cast<long long>(rows) * band / bands);
  };
  Stream upload;
  Stream download;
  std::vector<Event> uploaded;
  std::vector<Event> transposed;
  for (int b = 0; b < bands; ++b) {
    uploaded.emplace_back();
    transposed.emplace_back();
  }
  Event began;
  Event downloaded;
  const auto pipelined = [&] {
    // The uploads must not overwrite `in` before its poisoning on the default stream ends.
    CUDA_CHECK(cudaEventRecord(began, nullptr));
    CUDA_CHECK(cudaStreamWaitEvent(upload, began));
    for (int b = 0; b < bands; ++b) {
      const int count = first(b + 1) - first(b);
      copy_async(in.view().sub(first(b), 0, count, cols),
                 in_host.view().sub(first(b), 0, count, cols), cudaMemcpyHostToDevice, upload);
      CUDA_CHECK(cudaEventRecord(uploaded[b], upload));
    }
    for (int b = 0; b < bands; ++b) {
      const int count = first(b + 1) - first(b);
      CUDA_CHECK(cudaStreamWaitEvent(nullptr, uploaded[b]));
      launch(in.view().sub(first(b), 0, count, cols), out.view().sub(0, first(b), cols, count));
      CUDA_CHECK(cudaEventRecord(transposed[b], nullptr));
      CUDA_CHECK(cudaStreamWaitEvent(download, transposed[b]));
      copy_async(out_host.view().sub(0, first(b), cols, count),
                 out.view().sub(0, first(b), cols, count), cudaMemcpyDeviceToHost, download);
    }
    CUDA_CHECK(cudaEventRecord(downloaded, download));
    CUDA_CHECK(cudaStreamWaitEvent(nullptr, downloaded));
  };

  // Everything is poisoned before each run, device buffers included, so the check after the
  // last run sees only what that run moved.
  const auto round_trip = [&](const std::string& variant, const auto& enqueue) {
    Measurement row;
    row.variant = variant;
    row.role = Role::transfer;
    row.unit = "GB/s";
    row.work = 2.0 * sizeof(float) * rows * static_cast<double>(cols);  // up and down
    row.timing = measure_gpu(options.repeats, enqueue, [&] {
      poison(out_host.view());
      in.poison();
      out.poison();
    });
    row.check = check_transpose(in_host.view(), out_host.view());
    report.add(row);
  };
  round_trip("H2D+transpose+D2H, serial", serial);
  round_trip("H2D+transpose+D2H, " + std::to_string(bands) + " bands", pipelined);
}

std::string TransposeShape::describe() const {
  return std::to_string(rows) + "x" + std::to_string(cols) + " floats";
}

void add_transpose_shape(Cli& cli, TransposeShape& shape) {
  cli.add_int("--rows", &shape.rows, "rows of the input");
  cli.add_int("--cols", &shape.cols, "columns of the input");
  cli.add_check([&shape] { check_matrix_shape(shape.rows, shape.cols, shape.cols); });
}

std::vector<int> TransposeLayout::block_rows() const {
  std::vector<int> rows;
  if (layout != "four") rows.push_back(tile_size());
  if (layout != "one") rows.push_back(tile_size() / 4);
  return rows;
}

void add_transpose_layout(Cli& cli, TransposeLayout& layout) {
  cli.add_choice("--tile", &layout.tile, {"32", "16"}, "tile edge in elements");
  cli.add_choice("--layout", &layout.layout, {"both", "one", "four"},
                 "threads per tile: tile x tile (one element each), tile x tile/4 (four "
                 "each), or both");
}

std::string layout_name(int tile, int block_rows) {
  return "tile " + std::to_string(tile) + ", " + std::to_string(tile) + "x" +
         std::to_string(block_rows) + " threads";
}

}  // namespace ladder
