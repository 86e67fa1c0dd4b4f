// Part 4's BF16 stages on the GPU: BF16 operands, FP32 results, against a double-precision
// reference computed from the rounded inputs (every product exact), within the tensor-core bound
// tensor_gemm_gamma(K). Every variant and tiling on shapes around every tile edge in M, N and
// K, with operands laid out four ways inside NaN-filled buffers with guard cells around them,
// and the path each launcher took checked against the 16-byte alignment rule (for the Hopper
// stages: TMA where it holds, stage 15's kernel where not). The Hopper stages also run many
// times at a large K, bit for bit the same each time ([repeatable]). Tagged [sm80] or [sm90]
// (sm_90a code): the runner skips them on GPUs that cannot run them (catch_main.cpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "08_transpose_padded/kernel.hpp"
#include "12_gpu_pipelined/kernel.hpp"
#include "13_gpu_wmma/kernel.hpp"
#include "14_gpu_mma_ldmatrix/kernel.hpp"
#include "15_gpu_mma_pipelined/kernel.hpp"
#include "16_gpu_tma_wgmma/kernel.hpp"
#include "17_gpu_warp_specialized/kernel.hpp"
#include "18_gpu_persistent/kernel.hpp"
#include "19_gpu_clusters/kernel.hpp"
#include "20_gpu_tf32/kernel.hpp"
#include "21_gpu_stream_k/kernel.hpp"
#include "21_gpu_stream_k/model_constants.hpp"
#include "22_gpu_fp8/model_constants.hpp"
#include "common/aligned_access.hpp"
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_matrix_bf16.hpp"
#include "common/device_memory.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/verify.hpp"
#include "common/hopper/tile_model.hpp"
#include "common/matrix_owners.hpp"
#include "common/operand_path.hpp"
#include "guarded_layouts.hpp"
#include "script_rows.hpp"
#include "test_support.hpp"
#include "workspace_hazards.hpp"

using namespace ladder;
using test::download_whole;
using test::guarded_buffer;
using test::kGuardRowsBelow;
using test::Layout;
using test::view_in;

namespace {

// Part 3's shapes, and shapes on both sides of every edge Part 4's tiles have: blocks of 128
// and 256 in M and N, warp tiles of 32 and 64, K slices of 32 (stage 13) and 64 (14, 15), the
// 16-deep mma step and the 8-element chunk (K = 15, 17, 31, 33, ...). 129x257x1000 refills
// stage 15's ring many times. Under compute-sanitizer (LADDER_QUICK_SHAPES) a few that still
// run interior and edge blocks, partial chunks, both paths, and one K deep enough that every
// ring slot is refilled in both barrier parities, so that the sanitizers see the producers
// of 17 and later wait for empty slots, lap after lap. The rings: stage 15 has 2, 3 or 4 stages
// of 64-deep slices (tilings _s2, _s3, _s4), stage 16 3 slots and the warp-specialised kernels 4
// slots of 64 BF16, or of 32 floats in the TF32 kernels. The deepest, 4 slots, takes 4 x 4 slices for
// four fills of each slot (full-barrier parities 0, 1, 0, 1; the producer waits before the
// last three with empty-barrier parities 0, 1, 0): K >= 1024. K = 1064 is 16 whole slices and
// a partial 17th (40 of 64): 4 or 5 fills of each slot of a 4-slot ring, 5 or 6 of stage 16's;
// in TF32 33 whole slices of 32 and a partial 34th (8 of 32), 8 or 9 fills. One tile row
// (M = 65) keeps it cheap under the sanitizers; N = 72 puts the tight layout on the TMA path.
std::vector<test::GemmCase> part4_cases() {
  if (std::getenv("LADDER_QUICK_SHAPES") != nullptr) {
    return {{3, 5, 7}, {129, 260, 33}, {200, 130, 17}, {65, 72, 1064}, {33, 66, 18}};
  }
  return {{1, 1, 1},       {1, 1, 7},       {7, 1, 1},       {1, 9, 1},       {3, 5, 7},
          {17, 33, 9},     {64, 64, 1},     {63, 63, 63},    {64, 64, 64},    {65, 65, 65},
          {127, 129, 17},  {128, 128, 16},  {129, 127, 33},  {255, 257, 31},  {256, 256, 24},
          {1000, 3, 17},   {3, 1000, 17},   {17, 1000, 3},   {200, 300, 40},  {257, 129, 1025},
          {1100, 200, 40}, {33, 66, 18},    {130, 258, 70},  {128, 128, 1},   {129, 127, 15},
          {127, 129, 16},  {128, 256, 32},  {256, 128, 63},  {257, 255, 64},  {128, 128, 65},
          {255, 129, 127}, {129, 255, 128}, {256, 256, 129}, {1, 300, 64},    {300, 1, 64},
          {129, 257, 1000}};
}

// The BF16 Hopper stages: Part 4's shapes, and one with more output tiles than an H100 holds at
// once for any tile up to 128x256 or 256x128, so that some persistent blocks take a
// second tile, after a first whose store may still be under way. K = 200 is four slices, the
// last partial: the second tile's slices reuse all four ring slots with the other barrier
// parity, where a slot or a phase carried over wrongly from the first tile would show.
std::vector<test::GemmCase> hopper_cases() {
  std::vector<test::GemmCase> cases = part4_cases();
  cases.push_back({2100, 2100, 200});
  return cases;
}

// Whole 16-byte rows for both element sizes after 8 guard columns, and 8 or more after the
// view: the 16-byte path (TMA for the Hopper stages) whatever the view's width, partial chunks at
// its edge.
const Layout kAlignedPadding = {"aligned padding", 1, 8,
                                [](int width) { return (width + 7) / 8 * 8 + 8; }};

const Layout kLayouts[] = {
    // The stride is the width: the 16-byte path exactly where the width is a multiple of 8
    // (floats: 4).
    {"tight", 1, 0, [](int width) { return width; }},
    kAlignedPadding,
    // 3 guard columns after the view: 16-byte rows only where the view's width is 5 more than
    // a multiple of 8 (floats: 1 more than a multiple of 4).
    {"odd padding", 1, 8, [](int width) { return width + 3; }},
    // One row and one column in, with a stride of whole 16-byte rows (at least one guard
    // column after the view): the pointer is one element past a boundary, so a launcher that
    // checked only the stride would fault.
    {"shifted sub-view", 1, 1, [](int width) { return (width + 1 + 7) / 8 * 8; }},
};

bool allows_16_bytes_by_offsets(const Layout& layout, int width) {
  const int stride = layout.stride(width + layout.col_offset);
  const int offset = layout.row_offset * stride + layout.col_offset;
  return offset % 8 == 0 && stride % 8 == 0;
}

struct Bf16Operand {
  DeviceMatrixBf16 buffer;
  MatrixBf16 view;
  DeviceMatrix rounded;  // the same values in FP32, tight: what the reference multiplies
  HostMatrix rounded_host;
};

// Rounds `host` to BF16 into a sub-view of a NaN-filled buffer laid out as `layout`.
Bf16Operand place(Matrix host, const Layout& layout) {
  DeviceMatrixBf16 buffer = guarded_buffer<DeviceMatrixBf16>(layout, host.height, host.width);
  const MatrixBf16 view = view_in(buffer.view(), layout, host.height, host.width);
  DeviceMatrix source(host.height, host.width);
  source.upload(host);
  round_to_bf16(source.view(), view);
  DeviceMatrix rounded(host.height, host.width);
  widen_to_float(view, rounded.view());
  HostMatrix rounded_host(host.height, host.width);
  rounded.download(rounded_host.view());
  return Bf16Operand{std::move(buffer), view, std::move(rounded), std::move(rounded_host)};
}

// The same for an FP32 operand (stage 20's variant): `host` copied as it is.
struct FloatOperand {
  DeviceMatrix buffer;
  Matrix view;
};

FloatOperand place_float(Matrix host, const Layout& layout) {
  DeviceMatrix buffer = guarded_buffer<DeviceMatrix>(layout, host.height, host.width);
  const Matrix view = view_in(buffer.view(), layout, host.height, host.width);
  copy_2d(view, host, cudaMemcpyHostToDevice);
  return FloatOperand{std::move(buffer), view};
}

// C's view (at the layout's offsets in c_buffer, which started all NaN) must be within the
// tensor-core bound of the product of the exact inputs a and b (device, and host copies), and
// nothing of c_buffer outside the view may have been written.
void require_product(Matrix a, Matrix b, Matrix a_host, Matrix b_host, DeviceMatrix& c_buffer,
                     const Layout& layout, const test::GemmCase& shape) {
  const Matrix c = view_in(c_buffer.view(), layout, shape.m, shape.n);
  const CheckResult check =
      check_gemm_on_device(a, b, c, a_host, b_host, tensor_gemm_gamma(shape.k));
  INFO(check.summary());
  REQUIRE(check.ok);
  REQUIRE(check.checked == static_cast<long long>(shape.m) * shape.n);
  HostMatrix c_host = download_whole(c_buffer);
  REQUIRE(test::written_outside(c_host.view(), layout.row_offset, layout.col_offset, shape.m,
                                shape.n) == 0);
}

struct Variant {
  std::string name;
  std::function<OperandPath(MatrixBf16 a, MatrixBf16 b, Matrix c)> launch;
};

// A stage's variants by name, each launched through the stage's launcher with its name:
// launch(name, a, b, c), a function or a lambda holding what else the launcher takes.
using LaunchByName =
    std::function<OperandPath(const std::string& name, MatrixBf16 a, MatrixBf16 b, Matrix c)>;
std::vector<Variant> named_variants(const std::vector<std::string>& names, LaunchByName launch) {
  std::vector<Variant> variants;
  for (const std::string& name : names) {
    variants.push_back({name, [name, launch](MatrixBf16 a, MatrixBf16 b, Matrix c) {
                          return launch(name, a, b, c);
                        }});
  }
  return variants;
}

// Every case: C's buffer starts all NaN; afterwards C's view must be within the tensor-core
// bound of the reference, nothing outside the view may be written, and the launcher must have
// taken `aligned` (the 16-byte path; for the Hopper stages TMA) exactly when A and B allow
// 16-byte accesses, else `unaligned`: the element path (for most Hopper stages their
// fallback's, stage 15's), or stage 21's TMA path on copies in aligned rows.
void check_part4(const std::vector<Variant>& variants, OperandPath aligned,
                 const std::vector<test::GemmCase>& cases = part4_cases(),
                 OperandPath unaligned = OperandPath::element) {
  REQUIRE_FALSE(variants.empty());
  for (const auto& shape : cases) {
    HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 1);
    HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 2);
    for (const Layout& layout : kLayouts) {
      CAPTURE(test::describe(shape), layout.name);
      Bf16Operand a_device = place(a.view(), layout);
      Bf16Operand b_device = place(b.view(), layout);
      DeviceMatrix c_buffer = guarded_buffer<DeviceMatrix>(layout, shape.m, shape.n);
      const Matrix c = view_in(c_buffer.view(), layout, shape.m, shape.n);
      const bool vector = allows_16_bytes_by_offsets(layout, shape.k) &&
                          allows_16_bytes_by_offsets(layout, shape.n);
      for (const Variant& variant : variants) {
        CAPTURE(variant.name);
        c_buffer.poison();
        const OperandPath path = variant.launch(a_device.view, b_device.view, c);
        CUDA_CHECK(cudaDeviceSynchronize());
        REQUIRE(path == (vector ? aligned : unaligned));
        require_product(a_device.rounded.view(), b_device.rounded.view(),
                        a_device.rounded_host.view(), b_device.rounded_host.view(), c_buffer,
                        layout, shape);
      }
    }
  }
}

// A ring slot refilled while wgmma may still read it (a producer that does not wait for the
// slot's empty barrier, a consumer that hands a slot back before its wgmma has finished) lets
// TMA overwrite a slice in the middle of its product. Which elements that spoils depends on
// when the copy lands, so the same product, run again, comes out different. K = 4136 is 64
// whole slices of 64 and a partial 65th (TF32: 129 of 32 and a partial 130th): 16 laps of a
// 4-slot ring, 21 of a 3-slot one, on 6 to 9 tiles of a 384 x 512 C, 50 runs. Under the
// sanitizers (LADDER_QUICK_SHAPES) 2 runs of part4_cases' deep shape, 4 laps and more.
struct Repeats {
  test::GemmCase shape;
  int runs;
};

Repeats repeats() {
  if (std::getenv("LADDER_QUICK_SHAPES") != nullptr) return {{65, 72, 1064}, 2};
  return {{384, 512, 4136}, 50};
}

// Runs `launch` into C's view laid out as kAlignedPadding (so on the TMA path), C poisoned
// before each run: the first run's C within the bound of the exact product of a and b (device
// views, and the same on the host) with nothing written outside the view, every later one bit
// for bit the first, guard cells included.
void require_same_every_run(const std::function<OperandPath(Matrix c)>& launch, Matrix a,
                            Matrix b, Matrix a_host, Matrix b_host, const Repeats& repeat) {
  const test::GemmCase& shape = repeat.shape;
  DeviceMatrix c_buffer = guarded_buffer<DeviceMatrix>(kAlignedPadding, shape.m, shape.n);
  const Matrix c = view_in(c_buffer.view(), kAlignedPadding, shape.m, shape.n);
  const auto run = [&] {
    c_buffer.poison();
    REQUIRE(launch(c) == OperandPath::tma);
    CUDA_CHECK(cudaDeviceSynchronize());
  };
  run();
  require_product(a, b, a_host, b_host, c_buffer, kAlignedPadding, shape);
  HostMatrix first = download_whole(c_buffer);
  for (int again = 1; again < repeat.runs; ++again) {
    CAPTURE(again);
    run();
    HostMatrix later = download_whole(c_buffer);
    const CheckResult same = check_copy(whole_rows(first.view()), whole_rows(later.view()));
    INFO(same.summary());
    REQUIRE(same.ok);
  }
}

// require_same_every_run for each of a BF16 stage's variants, on one pair of random inputs.
void require_repeatable(const std::vector<Variant>& variants,
                        const Repeats& repeat = repeats()) {
  HostMatrix a = test::random_matrix(repeat.shape.m, repeat.shape.k, 0, 1);
  HostMatrix b = test::random_matrix(repeat.shape.k, repeat.shape.n, 0, 2);
  Bf16Operand a_device = place(a.view(), kAlignedPadding);
  Bf16Operand b_device = place(b.view(), kAlignedPadding);
  REQUIRE_FALSE(variants.empty());
  for (const Variant& variant : variants) {
    CAPTURE(variant.name);
    require_same_every_run(
        [&](Matrix c) { return variant.launch(a_device.view, b_device.view, c); },
        a_device.rounded.view(), b_device.rounded.view(), a_device.rounded_host.view(),
        b_device.rounded_host.view(), repeat);
  }
}

}  // namespace

TEST_CASE("Part 4 layouts: both 16-byte paths and a misaligned pointer",
          "[stage13][stage14][stage15][stage16][stage17][stage18][stage19]") {
  int aligned = 0;
  int misaligned_pointer = 0;
  for (const auto& shape : part4_cases()) {
    for (const Layout& layout : kLayouts) {
      aligned += allows_16_bytes_by_offsets(layout, shape.k) &&
                 allows_16_bytes_by_offsets(layout, shape.n);
      const int stride = layout.stride(shape.n + layout.col_offset);
      misaligned_pointer += stride % 8 == 0 && !allows_16_bytes_by_offsets(layout, shape.n);
    }
  }
  REQUIRE(aligned >= 10);
  REQUIRE(misaligned_pointer >= 10);
}

// The guard cells Layout's comment promises, for every width the shapes give A (K), B and C
// (N): a row above and below every view, a column or more on both sides of it unless the
// layout is tight, and for each width a layout guarded all round on the 16-byte path (TMA
// for the Hopper stages) and one on the fallback.
TEST_CASE("every Part 4 view has guard cells on both paths",
          "[stage13][stage14][stage15][stage16][stage17][stage18][stage19]") {
  static_assert(kGuardRowsBelow >= 1, "a store one row past C's view must land on a guard row");
  for (const auto& shape : hopper_cases()) {
    for (const int width : {shape.k, shape.n}) {
      CAPTURE(test::describe(shape), width);
      int guarded_16_byte = 0;
      int guarded_fallback = 0;
      for (const Layout& layout : kLayouts) {
        CAPTURE(layout.name);
        REQUIRE(layout.row_offset >= 1);
        const int buffer_width = layout.col_offset + width;
        const int after = layout.stride(buffer_width) - buffer_width;
        if (layout.col_offset == 0 && after == 0) continue;  // tight: its rows are the view's
        REQUIRE(layout.col_offset >= 1);
        REQUIRE(after >= 1);
        ++(allows_16_bytes_by_offsets(layout, width) ? guarded_16_byte : guarded_fallback);
      }
      REQUIRE(guarded_16_byte >= 1);
      REQUIRE(guarded_fallback >= 1);
    }
  }
}

TEST_CASE("13 wmma matches the reference on every shape and layout", "[gpu][sm80][stage13]") {
  check_part4(named_variants(wmma_configs(), launch_gemm_wmma), OperandPath::sixteen_byte);
}

TEST_CASE("14 mma.sync swizzled and not: every shape and layout",
          "[gpu][sm80][stage14]") {
  check_part4(named_variants(mma_configs(), launch_gemm_mma), OperandPath::sixteen_byte);
}

TEST_CASE("15 mma.sync pipelined: every tiling on every shape and layout", "[gpu][sm80][stage15]") {
  std::vector<std::string> fitting;
  for (const std::string& name : mma_pipelined_configs()) {
    if (mma_pipelined_unfit_reason(name).empty()) fitting.push_back(name);
  }
  check_part4(named_variants(fitting, launch_gemm_mma_pipelined), OperandPath::sixteen_byte);
}

TEST_CASE("the Part 4 launchers refuse mismatched shapes",
          "[gpu][sm80][stage13][stage14][stage15]") {
  DeviceMatrixBf16 a(8, 16);
  DeviceMatrixBf16 b(8, 8);  // a.width 16 != b.height 8
  DeviceMatrix c(8, 8);
  REQUIRE_THROWS_AS(launch_gemm_wmma(wmma_configs().front(), a.view(), b.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_mma(mma_configs().front(), a.view(), b.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_mma_pipelined(mma_pipelined_configs().front(), a.view(),
                                              b.view(), c.view()),
                    std::invalid_argument);
  DeviceMatrixBf16 fine(16, 8);
  REQUIRE_THROWS_AS(launch_gemm_wmma("no-such-tiling", a.view(), fine.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_mma("no-such-layout", a.view(), fine.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_mma_pipelined("no-such-tiling", a.view(), fine.view(), c.view()),
                    std::invalid_argument);
}

TEST_CASE("16 TMA + wgmma: every shape and layout (15 where TMA cannot)",
          "[gpu][sm90][stage16]") {
  check_part4(named_variants(tma_wgmma_configs(), launch_gemm_tma_wgmma), OperandPath::tma,
              hopper_cases());
}

TEST_CASE("17 warp-specialized: every variant on every shape and layout",
          "[gpu][sm90][stage17]") {
  check_part4(named_variants(warp_specialized_configs(), launch_gemm_warp_specialized),
              OperandPath::tma, hopper_cases());
}

TEST_CASE("18 persistent: every variant on every shape and layout", "[gpu][sm90][stage18]") {
  check_part4(named_variants(persistent_configs(), launch_gemm_persistent), OperandPath::tma,
              hopper_cases());
}

TEST_CASE("19 clusters: every variant on every shape and layout", "[gpu][sm90][stage19]") {
  check_part4(named_variants(cluster_configs(), launch_gemm_clusters), OperandPath::tma,
              hopper_cases());
}

// Slots refilled too early (require_same_every_run): each stage's default, and for stage 19
// also a tiling in clusters of two, whose slots wait for both blocks (at these sizes the
// default picks tiles without clusters).
TEST_CASE("16 TMA + wgmma: bit-identical results run after run",
          "[gpu][sm90][stage16][repeatable]") {
  require_repeatable(named_variants({tma_wgmma_configs().front()}, launch_gemm_tma_wgmma));
}

TEST_CASE("17 warp-specialized: bit-identical results run after run",
          "[gpu][sm90][stage17][repeatable]") {
  require_repeatable(
      named_variants({warp_specialized_configs().front()}, launch_gemm_warp_specialized));
}

TEST_CASE("18 persistent: bit-identical results run after run",
          "[gpu][sm90][stage18][repeatable]") {
  require_repeatable(named_variants({persistent_configs().front()}, launch_gemm_persistent));
}

TEST_CASE("19 clusters: bit-identical results run after run",
          "[gpu][sm90][stage19][repeatable]") {
  require_repeatable(
      named_variants({cluster_configs().front(), "128x256_c2_g8"}, launch_gemm_clusters));
}

// Stage 21's variants, through one workspace (one launch at a time, as the tests run). Its
// shapes: the other Hopper stages', where split-K divides the smaller ones (fewer tiles than
// clusters), and one whose few tiles and long K (65 slices) give Stream-K runs of a few slices,
// crossing tile boundaries, in both tilings that have a Stream-K variant.
std::vector<Variant> stream_k_variants(const std::vector<std::string>& names,
                                       const StreamKWorkspace& workspace) {
  return named_variants(names, [&workspace](const std::string& name, MatrixBf16 a, MatrixBf16 b,
                                            Matrix c) {
    return launch_gemm_stream_k(name, a, b, c, workspace);
  });
}

std::vector<test::GemmCase> stream_k_cases() {
  std::vector<test::GemmCase> cases =
      std::getenv("LADDER_QUICK_SHAPES") != nullptr ? part4_cases() : hopper_cases();
  cases.push_back({130, 300, 4136});
  return cases;
}

// Stage 21's model (common/hopper/tile_model.cpp with model_constants.hpp) against its script
// (scripts/stream_k_model.py), which records in model_picks.csv, for every shape of the four
// shape lists on the H200's counts, the variant it picks and the time it predicts, with the DRAM
// rate it took. No GPU needed: the model is a pure function.
TEST_CASE("21's model makes its script's pick and prediction on every listed shape", "[stage21]") {
  const auto picks = test::script_rows("results/21_gpu_stream_k/model_picks.csv",
                                       "m,n,k,pick,predicted_us,bytes_per_us,l2_bytes");
  const std::vector<std::string> names = stream_k_configs();
  const std::vector<Candidate> candidates = stream_k_candidates();
  REQUIRE(candidates.size() + 1 == names.size());  // every variant but by_shape
  // Each variant's name says what the model prices for it: "128x256_c2_split".
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    CAPTURE(names[i + 1]);
    int block_m = 0, block_n = 0, cluster = 0;
    char scheme[16] = {};
    REQUIRE(std::sscanf(names[i + 1].c_str(), "%dx%d_c%d_%15s", &block_m, &block_n, &cluster,
                        scheme) == 4);
    REQUIRE(candidates[i].block_m == block_m);
    REQUIRE(candidates[i].block_n == block_n);
    REQUIRE(candidates[i].cluster == cluster);
    const Scheme named = std::string(scheme) == "dp"      ? Scheme::data_parallel
                         : std::string(scheme) == "split" ? Scheme::split_k
                                                          : Scheme::stream_k;
    REQUIRE((std::string(scheme) == "dp" || std::string(scheme) == "split" ||
             std::string(scheme) == "stream"));
    REQUIRE(candidates[i].scheme == named);
  }
  int shapes = 0;
  for (const auto& field : picks) {
    CAPTURE(field[0], field[1], field[2]);
    REQUIRE(field.size() == 7);
    const int m = std::stoi(field[0]), n = std::stoi(field[1]), k = std::stoi(field[2]);
    const ModelGpu h200{132, 66, 1980, std::stod(field[5]), std::stod(field[6])};
    const int choice = fastest(stream_k_model::kModel, m, n, k, h200, candidates);
    REQUIRE(names[choice + 1] == field[3]);
    // by_shape keeps each shape's pick: the kept one is the same, the first time and after.
    REQUIRE(kept_fastest(stream_k_model::kModel, m, n, k, h200, candidates) == choice);
    REQUIRE(kept_fastest(stream_k_model::kModel, m, n, k, h200, candidates) == choice);
    const double us = predicted_us(stream_k_model::kModel, candidates[choice], m, n, k, h200);
    REQUIRE(us == Approx(std::stod(field[4])).epsilon(1e-6));
    ++shapes;
  }
  REQUIRE(shapes >= 70);
}

// The model of stages 21 and 22 (common/hopper/tile_model.cpp), with each set of constants.
TEST_CASE("the tile model scales with the clock and refuses a GPU it cannot count",
          "[stage21][stage22]") {
  for (const ModelConstants& model :
       {stream_k_model::kModel, fp8_model::kModel, fp8_model::kBlockModel}) {
    // About the H200's copy rate, bytes a microsecond, and its L2 of 60 MiB.
    const ModelGpu h200{132, 66, 1980, 4.2e6, 60.0 * (1 << 20)};
    ModelGpu slower = h200;
    slower.clock_mhz = 990;
    // 8192^3 on pairs of 128 x 256 tiles is bound by its slices, not by memory: half the clock,
    // about twice the time (not the launch, nor alpha's share of the memory side).
    const Candidate pairs{256, 2, Scheme::data_parallel};
    const double fast = predicted_us(model, pairs, 8192, 8192, 8192, h200);
    const double slow = predicted_us(model, pairs, 8192, 8192, 8192, slower);
    REQUIRE(slow > 1.9 * fast);
    for (ModelGpu broken :
         {ModelGpu{}, ModelGpu{132, 0, 1980, 4e6, 6e7}, ModelGpu{132, 66, 0, 4e6, 6e7},
          ModelGpu{132, 66, 1980, 0, 6e7}, ModelGpu{132, 66, 1980, 4e6, 0}}) {
      REQUIRE_THROWS_AS(fastest(model, 4096, 4096, 4096, broken, {pairs}),
                        std::invalid_argument);
    }
    const Candidate untuned{96, 1, Scheme::data_parallel};
    REQUIRE_THROWS_AS(fastest(model, 4096, 4096, 4096, h200, {untuned}), std::invalid_argument);
  }
}

// Stream-K's operands as its runs read them (stream_k_model.py's stream_reads, which its test
// holds to a slice-by-slice walk of the runs): two 128 x 128 tiles side by side, 132 runs. At
// 6600 slices a tile the runs end where the tiles do and A's panel is read once; at 6610 and
// 6650 some of its slices twice (7160 and 10495 reads of a slice, the script's count). On a
// DRAM of half the H200's rate the memory side bounds each prediction: with alpha 0 (nothing
// of the compute side added), it is the prediction less the launch. And at 640 x 640 x
// 40960, where the runs fall far apart, Stream-K is priced above split-K, as measured (123
// against 73 us).
TEST_CASE("21's model prices Stream-K's operands as its runs read them", "[stage21]") {
  const ModelGpu slow_dram{132, 66, 1980, 2.1e6, 60.0 * (1 << 20)};
  const ModelGpu h200{132, 66, 1980, 4.2e6, 60.0 * (1 << 20)};
  const Candidate stream{128, 1, Scheme::stream_k};
  ModelConstants memory_only = stream_k_model::kModel;
  memory_only.alpha = 0;
  for (auto [slices, a_reads] : {std::pair{6600, 6600}, {6610, 7160}, {6650, 10495}}) {
    CAPTURE(slices);
    const int k = 64 * slices;
    const double panels = 2 + static_cast<double>(a_reads) / slices;  // B's two, then A's
    const double bytes = panels * 128.0 * k * 2 + 4.0 * 128 * 256;
    REQUIRE(predicted_us(memory_only, stream, 128, 256, k, slow_dram) ==
            Approx(bytes / 2.1e6 + memory_only.lambda).epsilon(1e-12));
  }
  REQUIRE(predicted_us(stream_k_model::kModel, stream, 640, 640, 40960, h200) >
          predicted_us(stream_k_model::kModel, {128, 1, Scheme::split_k}, 640, 640, 40960, h200));
}

// The C++ count of Stream-K's reads against the script's (model_stream_reads.csv), on every
// listed shape and a few with ragged edges, more than 8 cluster rows or more than a wave, for
// each Stream-K tiling of stages 21 and 22. On a DRAM of one byte a microsecond the memory side
// is the prediction (alpha 0: nothing of the compute side added), so the bytes moved are the
// predicted time less the launch.
TEST_CASE("the tile model counts Stream-K's reads as its script does", "[stage21][stage22]") {
  const ModelGpu one_byte{132, 66, 1980, 1.0, 60.0 * (1 << 20)};
  int counted = 0;
  for (const auto& field : test::script_rows("results/21_gpu_stream_k/model_stream_reads.csv",
                                             "stage,m,n,k,block_n,cluster,bytes")) {
    CAPTURE(field[0], field[1], field[2], field[3], field[4], field[5]);
    REQUIRE(field.size() == 7);
    ModelConstants model = field[0] == "21" ? stream_k_model::kModel : fp8_model::kModel;
    model.alpha = 0;
    const int m = std::stoi(field[1]), n = std::stoi(field[2]), k = std::stoi(field[3]);
    const Candidate stream{std::stoi(field[4]), std::stoi(field[5]), Scheme::stream_k};
    const double moved = std::stod(field[6]) + 4.0 * m * n;
    REQUIRE(predicted_us(model, stream, m, n, k, one_byte) - model.lambda ==
            Approx(moved).epsilon(1e-9));
    ++counted;
  }
  REQUIRE(counted >= 300);
}

// by_shape keeps each pick per GPU, shape and candidates: two lists on one shape keep their own.
TEST_CASE("21's kept pick is the model's, for each list of candidates", "[stage21]") {
  const ModelGpu h200{132, 66, 1980, 4.2e6, 60.0 * (1 << 20)};
  const std::vector<Candidate> both{{256, 2, Scheme::data_parallel}, {64, 1, Scheme::split_k}};
  const std::vector<Candidate> reversed{both[1], both[0]};
  for (int round = 0; round < 2; ++round) {
    const int pick = fastest(stream_k_model::kModel, 1024, 1024, 1024, h200, both);
    REQUIRE(kept_fastest(stream_k_model::kModel, 1024, 1024, 1024, h200, both) == pick);
    REQUIRE(kept_fastest(stream_k_model::kModel, 1024, 1024, 1024, h200, reversed) == 1 - pick);
  }
  REQUIRE_THROWS_AS(kept_fastest(stream_k_model::kModel, 1024, 1024, 1024, ModelGpu{}, both),
                    std::invalid_argument);
}

// A split-K or Stream-K launch that divides nothing runs the whole-tile kernel on the same
// clusters, and the model prices it so: 1024^3 on 128 x 64 tiles (128 tiles for 132 SMs: no
// split) and 1536 x 1408 on 128 x 128 (one whole wave: nothing to pool). One that divides
// (384 x 512 x 4136, split five ways) is priced otherwise.
TEST_CASE("21's model prices a division that divides nothing as whole tiles", "[stage21]") {
  const ModelGpu h200{132, 66, 1980, 4.2e6, 60.0 * (1 << 20)};
  auto us = [&](int block_n, Scheme scheme, int m, int n, int k) {
    return predicted_us(stream_k_model::kModel, {block_n, 1, scheme}, m, n, k, h200);
  };
  REQUIRE(us(64, Scheme::split_k, 1024, 1024, 1024) ==
          us(64, Scheme::data_parallel, 1024, 1024, 1024));
  REQUIRE(us(128, Scheme::stream_k, 1536, 1408, 4096) ==
          us(128, Scheme::data_parallel, 1536, 1408, 4096));
  REQUIRE(us(64, Scheme::split_k, 384, 512, 4136) != us(64, Scheme::data_parallel, 384, 512, 4136));
}

// The launchers run the whole-tile kernel wherever the division cuts no tile, so a data-parallel
// division must never cut one, whatever the tiles, slices and clusters.
TEST_CASE("divide() never cuts a tile for a data-parallel launch", "[stage21]") {
  for (const long long tiles : {1LL, 65LL, 66LL, 67LL, 132LL, 133LL, 1000LL}) {
    for (const int slices : {1, 16, 224}) {
      for (const int resident : {1, 66, 132}) {
        const Division d = divide(tiles, slices, resident, Scheme::data_parallel, 16);
        CAPTURE(tiles, slices, resident);
        REQUIRE(d.whole_tiles == d.tiles);
        REQUIRE(d.tiles == tiles);
      }
    }
  }
}

TEST_CASE("21 Stream-K: every variant on every shape and layout", "[gpu][sm90][stage21]") {
  const StreamKWorkspace workspace;
  check_part4(stream_k_variants(stream_k_configs(), workspace), OperandPath::tma,
              stream_k_cases(), OperandPath::tma_after_copy);
}

// One tile of 128 x 64 or 128 x 128 and 50 slices: split-K cuts it into 50 ranges (split_ways:
// one tile of 132 SMs' wave, at most max_split, at most the slices), which meet in the tree
// (tile_parts.hpp): range 48 adds ranges 47 to 45 and 44, 40, 36, and the last, 50, adds 49, 48,
// 32 and 16.
constexpr test::GemmCase kTreeSplitShape{100, 56, 3144};

// The ranges each range adds (for_each_tree_read): the tile's sum has every range's sums once,
// and each range adds only lower ones (lower-numbered clusters), for every number of ranges.
TEST_CASE("split-K's tree adds every range once, each from a lower range", "[stage21]") {
  for (int ways = 2; ways <= 200; ++ways) {
    std::vector<std::vector<int>> holds(ways + 1);  // the ranges whose sums range i saves
    bool only_lower = true;
    for (int i = 1; i <= ways; ++i) {
      holds[i] = {i};
      for_each_tree_read(i, ways, [&](int range) {
        only_lower = only_lower && range >= 1 && range < i;
        holds[i].insert(holds[i].end(), holds[range].begin(), holds[range].end());
      });
    }
    std::vector<int> every(ways);
    std::iota(every.begin(), every.end(), 1);
    std::sort(holds[ways].begin(), holds[ways].end());
    CAPTURE(ways);
    REQUIRE(only_lower);
    REQUIRE(holds[ways] == every);
  }
  auto reads = [](int i, int ways) {
    std::vector<int> ranges;
    for_each_tree_read(i, ways, [&](int range) { ranges.push_back(range); });
    return ranges;
  };
  REQUIRE(reads(48, 50) == std::vector<int>{47, 46, 45, 44, 40, 36});
  REQUIRE(reads(50, 50) == std::vector<int>{49, 48, 32, 16});
  REQUIRE(reads(3, 4).empty());
  REQUIRE(reads(4, 4) == std::vector<int>{3, 2, 1});
  // The tests' shape: one tile of 50 slices on 132 SMs, cut into 50 ranges under stage 21's cap.
  const int slice_k = stream_k_model::kModel.slice_k;
  const int slices = (kTreeSplitShape.k + slice_k - 1) / slice_k;
  REQUIRE(slices == 50);
  REQUIRE(divide(1, slices, 132, Scheme::split_k, stream_k_model::kModel.max_split).split == 50);
}

// The partial tiles are added in a fixed order, so split-K and Stream-K give the same bits
// every run, as the whole tiles do. At 384 x 512 x 4136 every variant named divides its tiles
// (by_shape: 128 x 64 tiles split 5 ways; Stream-K runs of 3-6 slices); under the sanitizers,
// 2 runs of stream_k_cases' last shape, where they divide too (part4_cases' deep one is too
// small for Stream-K to divide).
TEST_CASE("21 Stream-K: bit-identical results run after run",
          "[gpu][sm90][stage21][repeatable]") {
  const StreamKWorkspace workspace;
  const Repeats repeat = std::getenv("LADDER_QUICK_SHAPES") != nullptr
                             ? Repeats{stream_k_cases().back(), 2}
                             : repeats();
  require_repeatable(stream_k_variants({stream_k_configs().front(), "128x256_c2_split",
                                        "128x256_c2_stream", "128x128_c1_stream"},
                                       workspace),
                     repeat);
  // One tile cut into 50 ranges that meet in the tree (kTreeSplitShape).
  require_repeatable(stream_k_variants({"128x64_c1_split"}, workspace),
                     Repeats{kTreeSplitShape, repeat.runs});
}

// The variants of stage 21 that divide tiles, on a shape where each does (by default 384 x 512 x
// 4136: 65 slices over a few tiles), on inputs laid out as kAlignedPadding (TMA).
// `around_launch` gets each variant's launch, which poisons C first; C is checked by
// require_product after.
void require_dividing_variants_right(
    const StreamKWorkspace& workspace, const std::vector<std::string>& names,
    const std::function<void(const std::function<void()>& launch)>& around_launch,
    const test::GemmCase shape = {384, 512, 4136}) {
  HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 1);
  HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 2);
  Bf16Operand a_device = place(a.view(), kAlignedPadding);
  Bf16Operand b_device = place(b.view(), kAlignedPadding);
  DeviceMatrix c_buffer = guarded_buffer<DeviceMatrix>(kAlignedPadding, shape.m, shape.n);
  const Matrix c = view_in(c_buffer.view(), kAlignedPadding, shape.m, shape.n);
  for (const std::string& name : names) {
    CAPTURE(name);
    around_launch([&] {
      c_buffer.poison();
      REQUIRE(launch_gemm_stream_k(name, a_device.view, b_device.view, c, workspace) ==
              OperandPath::tma);
    });
    CUDA_CHECK(cudaDeviceSynchronize());
    require_product(a_device.rounded.view(), b_device.rounded.view(),
                    a_device.rounded_host.view(), b_device.rounded_host.view(), c_buffer,
                    kAlignedPadding, shape);
  }
}

// A launch killed or faulted mid-way leaves flags set and partial sums in the workspace; the
// next launch must neither take those flags for its own nor add those sums
// (test::dirty_workspace). Only variants that divide at that shape: by_shape may run whole tiles
// there after a refit, which set no flag.
TEST_CASE("21 Stream-K: a workspace left dirty by an earlier launch gives the right result",
          "[gpu][sm90][stage21]") {
  const StreamKWorkspace workspace;
  auto over_dirty_flags = [&](const std::function<void()>& launch) {
    REQUIRE(test::relaunch_numbers_past_dirty_flags(workspace, launch));
  };
  require_dividing_variants_right(
      workspace,
      {"128x256_c2_split", "128x256_c2_stream", "128x128_c1_stream", "128x64_c1_split"},
      over_dirty_flags);
  require_dividing_variants_right(workspace, {"128x128_c1_split", "128x64_c1_split"},
                                  over_dirty_flags, kTreeSplitShape);
}

// A part that waits for a part of a block started after its own hangs where the GPU holds
// fewer blocks than the grid: beside another program's kernel, or under an MPS limit. Every
// dividing variant without clusters must finish beside a kernel that holds every SM but one
// (clusters of two need two free SMs of one GPC, which the spinning blocks may not leave), and
// be right.
TEST_CASE("21 Stream-K: finishes beside a kernel that holds every SM but one",
          "[gpu][sm90][stage21][beside_busy_sms]") {
  const StreamKWorkspace workspace;
  auto beside_busy_sms = [](const std::function<void()>& launch) {
    REQUIRE(test::finishes_beside_busy_sms(launch));
  };
  require_dividing_variants_right(
      workspace, {"128x128_c1_stream", "128x128_c1_split", "128x64_c1_split"}, beside_busy_sms);
  require_dividing_variants_right(workspace, {"128x128_c1_split", "128x64_c1_split"},
                                  beside_busy_sms, kTreeSplitShape);
}

// Stage 20's variant: FP32 operands rounded to TF32 values (so the reference's products
// are exact, as with BF16 above), laid out the four ways in FP32 (a 16-byte row start needs
// element offsets and strides that are multiples of 4). The variants on B as given, and those
// from B^T, written by stage 08's kernel into a NaN-filled workspace of whole 128-byte rows.
// Operands whose rows TMA cannot read are copied first: the path says so.
TEST_CASE("20 TF32: every variant on every shape and layout",
          "[gpu][sm90][stage20]") {
  REQUIRE_FALSE(tf32_configs().empty());
  REQUIRE_FALSE(tf32_transposing_configs().empty());
  for (const auto& shape : hopper_cases()) {
    HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 1);
    HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 2);
    round_to_tf32(a.view());
    round_to_tf32(b.view());
    DeviceMatrix a_tight(shape.m, shape.k);
    DeviceMatrix b_tight(shape.k, shape.n);
    a_tight.upload(a.view());
    b_tight.upload(b.view());
    DeviceMatrix b_t(shape.n, shape.k, transposed_b_stride(shape.k));
    for (const Layout& layout : kLayouts) {
      CAPTURE(test::describe(shape), layout.name);
      const FloatOperand a_device = place_float(a.view(), layout);
      const FloatOperand b_device = place_float(b.view(), layout);
      DeviceMatrix c_buffer = guarded_buffer<DeviceMatrix>(layout, shape.m, shape.n);
      const Matrix c = view_in(c_buffer.view(), layout, shape.m, shape.n);
      const bool nothing_to_do = shape.m == 0 || shape.n == 0 || shape.k == 0;
      auto expected = [&](bool copies) {
        return copies && !nothing_to_do ? OperandPath::tma_after_copy : OperandPath::tma;
      };
      for (const std::string& name : tf32_configs()) {
        CAPTURE(name);
        c_buffer.poison();
        const OperandPath path = launch_gemm_tf32(name, a_device.view, b_device.view, c);
        CUDA_CHECK(cudaDeviceSynchronize());
        REQUIRE(path == expected(!allows_float4(a_device.view) || !allows_float4(b_device.view)));
        require_product(a_tight.view(), b_tight.view(), a.view(), b.view(), c_buffer, layout,
                        shape);
      }
      for (const std::string& name : tf32_transposing_configs()) {
        CAPTURE(name);
        c_buffer.poison();
        b_t.poison();
        const Matrix b_t_view = b_t.view().sub(0, 0, shape.n, shape.k);
        if (shape.n > 0 && shape.k > 0) launch_transpose_padded(b_device.view, b_t_view, 32, 8);
        const OperandPath path =
            launch_gemm_tf32_transposed(name, a_device.view, b_t_view, c);
        CUDA_CHECK(cudaDeviceSynchronize());
        REQUIRE(path == expected(!allows_float4(a_device.view)));
        require_product(a_tight.view(), b_tight.view(), a.view(), b.view(), c_buffer, layout,
                        shape);
      }
    }
  }
}

// The same for the TF32 variant, on TF32 values (the bound of the every-shape test above): the
// swapped default and its pairs, and the transposing pairs, B^T written again before every run.
TEST_CASE("20 TF32: bit-identical results run after run", "[gpu][sm90][stage20][repeatable]") {
  const Repeats repeat = repeats();
  const test::GemmCase& shape = repeat.shape;
  HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 1);
  HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 2);
  round_to_tf32(a.view());
  round_to_tf32(b.view());
  const FloatOperand a_device = place_float(a.view(), kAlignedPadding);
  const FloatOperand b_device = place_float(b.view(), kAlignedPadding);
  DeviceMatrix b_t(shape.n, shape.k, transposed_b_stride(shape.k));
  for (const std::string& name : {tf32_configs().front(),
                                  std::string("swapped_128x256_c2_g8")}) {
    CAPTURE(name);
    require_same_every_run(
        [&](Matrix c) {
          return launch_gemm_tf32(name, a_device.view, b_device.view, c);
        },
        a_device.view, b_device.view, a.view(), b.view(), repeat);
  }
  require_same_every_run(
      [&](Matrix c) {
        b_t.poison();
        launch_transpose_padded(b_device.view, b_t.view(), 32, 8);
        return launch_gemm_tf32_transposed("transposed_128x256_c2_g8", a_device.view,
                                                      b_t.view(), c);
      },
      a_device.view, b_device.view, a.view(), b.view(), repeat);
}

// A user's FP32 inputs are not TF32 values: the tensor cores read each one with its low 13
// mantissa bits dropped or rounded away, a relative change below 2^-10 per operand, so below
// 2^-9 + 2^-20 per product. The bound for that is the tensor-core bound plus 2^-8: the inputs'
// part with the factor 2 every bound here carries. Random inputs must stay within it, for the
// swapped default (B read into registers) and the transposing one (B^T in shared memory); the
// product from the B^T that the transposing run left must be the same bits, and on inputs
// rounded to TF32 first it is held to the bound of TF32 values alone. And inputs of
// 1 + 3 * 2^-12 times ones (0.75 of TF32's spacing above 1) must come out as the sum of 1s or
// of (1 + 2^-10)s exactly, never the exact FP32 product: the low bits are not read, from
// registers or from shared memory.
TEST_CASE("20 TF32 on FP32 inputs: within the TF32 error and low bits unread",
          "[gpu][sm90][stage20]") {
  const test::GemmCase shape{300, 520, 1000};
  const std::string swapped = tf32_configs().front();
  const std::string transposing = tf32_transposing_configs().front();
  HostMatrix a = test::random_matrix(shape.m, shape.k, 0, 5);
  HostMatrix b = test::random_matrix(shape.k, shape.n, 0, 6);
  DeviceMatrix a_device(shape.m, shape.k);
  DeviceMatrix b_device(shape.k, shape.n);
  a_device.upload(a.view());
  b_device.upload(b.view());
  DeviceMatrix b_t(shape.n, shape.k, transposed_b_stride(shape.k));
  DeviceMatrix c(shape.m, shape.n);
  const double input_gamma = tensor_gemm_gamma(shape.k) + std::ldexp(1.0, -8);
  // The transposing variant from the B^T that stage 08's kernel writes, as the program times it.
  auto launch = [&](const std::string& name) {
    if (name == swapped)
      return launch_gemm_tf32(name, a_device.view(), b_device.view(), c.view());
    launch_transpose_padded(b_device.view(), b_t.view(), 32, 8);
    return launch_gemm_tf32_transposed(name, a_device.view(), b_t.view(), c.view());
  };
  for (const std::string& name : {swapped, transposing}) {
    CAPTURE(name);
    c.poison();
    REQUIRE(launch(name) == OperandPath::tma);
    CUDA_CHECK(cudaDeviceSynchronize());
    const CheckResult within = check_gemm_on_device(a_device.view(), b_device.view(), c.view(),
                                                    a.view(), b.view(), input_gamma);
    INFO(within.summary());
    REQUIRE(within.ok);
  }
  // b_t now holds B^T: the product alone, from it, is the same kernel on the same operands.
  HostMatrix c_full(shape.m, shape.n);
  c.download(c_full.view());
  c.poison();
  launch_gemm_tf32_transposed(transposing, a_device.view(), b_t.view(), c.view());
  CUDA_CHECK(cudaDeviceSynchronize());
  HostMatrix c_from_b_t(shape.m, shape.n);
  c.download(c_from_b_t.view());
  const CheckResult same = check_copy(c_full.view(), c_from_b_t.view());
  INFO(same.summary());
  REQUIRE(same.ok);
  // On TF32 values every product is exact in the reference, as in the every-shape test above:
  // the product from B^T within tensor_gemm_gamma(K) alone. The inputs' 2^-8 would hide a few
  // products lost or counted twice (one is about 1 / K = 2^-10 of the magnitude here).
  round_to_tf32(a.view());
  round_to_tf32(b.view());
  a_device.upload(a.view());
  b_device.upload(b.view());
  b_t.poison();
  launch_transpose_padded(b_device.view(), b_t.view(), 32, 8);
  c.poison();
  launch_gemm_tf32_transposed(transposing, a_device.view(), b_t.view(), c.view());
  CUDA_CHECK(cudaDeviceSynchronize());
  const CheckResult from_b_t =
      check_gemm_on_device(a_device.view(), b_device.view(), c.view(), a.view(), b.view(),
                           tensor_gemm_gamma(shape.k));
  INFO(from_b_t.summary());
  REQUIRE(from_b_t.ok);

  const float above_one = 1.0f + 3 * std::ldexp(1.0f, -12);
  for (int row = 0; row < shape.m; ++row) {
    for (int col = 0; col < shape.k; ++col) a.view().set(row, col, above_one);
  }
  for (int row = 0; row < shape.k; ++row) {
    for (int col = 0; col < shape.n; ++col) b.view().set(row, col, 1.0f);
  }
  a_device.upload(a.view());
  b_device.upload(b.view());
  const float truncated = static_cast<float>(shape.k);                       // 1000 x 1
  const float rounded = static_cast<float>(shape.k) * (1 + std::ldexp(1.0f, -10));
  for (const std::string& name : {swapped, transposing}) {
    CAPTURE(name);
    c.poison();
    launch(name);
    CUDA_CHECK(cudaDeviceSynchronize());
    HostMatrix c_host(shape.m, shape.n);
    c.download(c_host.view());
    long long truncated_count = 0;
    long long other = 0;
    for (int row = 0; row < shape.m; ++row) {
      for (int col = 0; col < shape.n; ++col) {
        const float value = c_host.view().get(row, col);
        truncated_count += value == truncated;
        other += value != truncated && value != rounded;
      }
    }
    INFO(truncated_count << " of " << shape.m * shape.n << " elements as from truncated inputs");
    REQUIRE(other == 0);
  }
}

TEST_CASE("20 TF32 refuses bad shapes and variants and an unreadable B^T",
          "[gpu][sm90][stage20]") {
  DeviceMatrix a(8, 16);
  DeviceMatrix b(16, 8);
  DeviceMatrix b_t(8, 16, transposed_b_stride(16));
  DeviceMatrix c(8, 8);
  const std::string swapped = tf32_configs().front();
  const std::string name = tf32_transposing_configs().front();
  DeviceMatrix wrong_b_t(16, 8);  // k x n instead of n x k
  REQUIRE_THROWS_AS(
      launch_gemm_tf32_transposed(name, a.view(), wrong_b_t.view(), c.view()),
      std::invalid_argument);
  DeviceMatrix wrong_b(8, 8);  // a.width 16 != b.height 8
  REQUIRE_THROWS_AS(launch_gemm_tf32(swapped, a.view(), wrong_b.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_tf32("256x128_c2_g8", a.view(), b.view(), c.view()),
                    std::invalid_argument);
  // A workspace whose rows TMA cannot read is the caller's mistake: refused, not copied.
  DeviceMatrix odd_b_t(8, 16, 18);  // rows 72 bytes apart: no tensor map
  REQUIRE_THROWS_AS(
      launch_gemm_tf32_transposed(name, a.view(), odd_b_t.view(), c.view()),
      std::invalid_argument);
  // Each launcher takes its own variants only.
  REQUIRE_THROWS_AS(launch_gemm_tf32(name, a.view(), b.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(
      launch_gemm_tf32_transposed(swapped, a.view(), b_t.view(), c.view()),
      std::invalid_argument);
}

TEST_CASE("the Hopper launchers refuse mismatched shapes and unknown variants",
          "[gpu][sm90][stage16][stage17][stage18][stage19]") {
  DeviceMatrixBf16 a(8, 16);
  DeviceMatrixBf16 b(8, 8);  // a.width 16 != b.height 8
  DeviceMatrix c(8, 8);
  REQUIRE_THROWS_AS(launch_gemm_tma_wgmma(tma_wgmma_configs().front(), a.view(), b.view(),
                                          c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_warp_specialized(warp_specialized_configs().front(), a.view(),
                                                 b.view(), c.view()),
                    std::invalid_argument);
  for (const std::string& name : persistent_configs()) {
    CAPTURE(name);
    REQUIRE_THROWS_AS(launch_gemm_persistent(name, a.view(), b.view(), c.view()),
                      std::invalid_argument);
  }
  for (const std::string& name : cluster_configs()) {
    CAPTURE(name);
    REQUIRE_THROWS_AS(launch_gemm_clusters(name, a.view(), b.view(), c.view()),
                      std::invalid_argument);
  }
  DeviceMatrixBf16 fine(16, 8);
  REQUIRE_THROWS_AS(launch_gemm_persistent("no-such-variant", a.view(), fine.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_clusters("no-such-variant", a.view(), fine.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(launch_gemm_tma_wgmma("no-such-variant", a.view(), fine.view(), c.view()),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(
      launch_gemm_warp_specialized("no-such-variant", a.view(), fine.view(), c.view()),
      std::invalid_argument);
}
