#include "08_transpose_padded/overlap.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "08_transpose_padded/kernel.hpp"
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/gpu_timing.hpp"
#include "common/harness/verify.hpp"

namespace ladder {
namespace {

void copy_async(Matrix to, Matrix from, cudaMemcpyKind kind, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpy2DAsync(to.data, sizeof(float) * to.stride, from.data,
                               sizeof(float) * from.stride, sizeof(float) * to.width, to.height,
                               kind, stream));
}

}  // namespace

void run_round_trips(Report& report, const TransposeShape& shape, const RunOptions& options,
                     int tile, int block_rows, int bands) {
  const int rows = shape.rows;
  const int cols = shape.cols;
  bands = std::min(bands, rows);
  PinnedMatrix in_host(rows, cols);
  PinnedMatrix out_host(cols, rows);
  fill_random(in_host.view(), options.seed);
  DeviceMatrix in(rows, cols);
  DeviceMatrix out(cols, rows);

  const auto serial = [&] {
    copy_async(in.view(), in_host.view(), cudaMemcpyHostToDevice, nullptr);
    launch_transpose_padded(in.view(), out.view(), tile, block_rows);
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
      launch_transpose_padded(in.view().sub(first(b), 0, count, cols),
                              out.view().sub(0, first(b), cols, count), tile, block_rows);
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

}  // namespace ladder
