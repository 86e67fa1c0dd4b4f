// Every public launcher of the GPU stages but FP8's at the edges of its contract
// (common/matrix.hpp): a view that breaks the int-index rule is refused before any CUDA call
// (so those tests need no GPU), an empty C is no work, and K = 0 makes C = 0, every sum empty,
// as the FP32 kernels always wrote it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "03_gpu_naive/kernel.hpp"
#include "04_gpu_shared_tiled/kernel.hpp"
#include "05_gpu_unrolled/kernel.hpp"
#include "06_transpose_naive/kernel.hpp"
#include "07_transpose_shared/kernel.hpp"
#include "08_transpose_padded/kernel.hpp"
#include "09_gpu_register_tiled/kernel.hpp"
#include "10_gpu_vectorized/kernel.hpp"
#include "11_gpu_warp_tiled/kernel.hpp"
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
#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_matrix_bf16.hpp"
#include "common/host_matrix.hpp"
#include "test_support.hpp"

using namespace ladder;

namespace {

// A launcher of c = a * b by name; View: Matrix (FP32 stages) or MatrixBf16 (Part 4).
template <class View>
struct Launcher {
  std::string name;
  std::function<void(View a, View b, Matrix c)> launch;
};

// Every config of a stage through its launcher, launch(config, a, b, c), as "<prefix><config>".
template <class View, class Launch>
void add_configs(std::vector<Launcher<View>>& launchers, const std::string& prefix,
                 const std::vector<std::string>& configs, Launch launch) {
  for (const std::string& config : configs) {
    launchers.push_back(
        {prefix + config, [=](View a, View b, Matrix c) { launch(config, a, b, c); }});
  }
}

// The FP32 matrix-product stages, every variant, tiling and ablation the programs offer.
std::vector<Launcher<Matrix>> fp32_launchers() {
  std::vector<Launcher<Matrix>> launchers;
  for (const auto& [name, mapping] :
       {std::pair{"rows", NaiveMapping::rows}, std::pair{"cols", NaiveMapping::cols}}) {
    for (const int block : {16, 32}) {
      launchers.push_back({std::string("03 ") + name + " block " + std::to_string(block),
                           [=, mapping = mapping](Matrix a, Matrix b, Matrix c) {
                             launch_gemm_naive(mapping, block, a, b, c);
                           }});
    }
  }
  for (const int tile : {8, 16, 32}) {
    const std::string size = " tile " + std::to_string(tile);
    launchers.push_back({"04 square" + size, [=](Matrix a, Matrix b, Matrix c) {
                           launch_gemm_tiled(TilePolicy::square, tile, a, b, c);
                         }});
    launchers.push_back({"04 wide" + size, [=](Matrix a, Matrix b, Matrix c) {
                           launch_gemm_tiled(TilePolicy::wide, tile, a, b, c);
                         }});
    launchers.push_back({"04 racy, after load" + size, [=](Matrix a, Matrix b, Matrix c) {
                           launch_gemm_tiled_racy(DroppedSync::after_load, tile, a, b, c);
                         }});
    launchers.push_back({"04 racy, after compute" + size, [=](Matrix a, Matrix b, Matrix c) {
                           launch_gemm_tiled_racy(DroppedSync::after_compute, tile, a, b, c);
                         }});
    for (const auto& [name, unroll] :
         {std::pair{"none", Unroll::none}, std::pair{"manual4", Unroll::manual4},
          std::pair{"full", Unroll::full}, std::pair{"compiler", Unroll::compiler}}) {
      launchers.push_back({std::string("05 ") + name + size,
                           [=, unroll = unroll](Matrix a, Matrix b, Matrix c) {
                             launch_gemm_unrolled(unroll, tile, a, b, c);
                           }});
    }
  }
  for (const auto& [name, tiling] :
       {std::pair{"1D", RegisterTiling::one_d}, std::pair{"2D", RegisterTiling::two_d}}) {
    launchers.push_back({std::string("09 ") + name,
                         [tiling = tiling](Matrix a, Matrix b, Matrix c) {
                           launch_gemm_register_tiled(tiling, a, b, c);
                         }});
  }
  for (const int depth : {16, 8}) {
    launchers.push_back({"10 BK " + std::to_string(depth), [=](Matrix a, Matrix b, Matrix c) {
                           launch_gemm_vectorized(a, b, c, depth);
                         }});
  }
  add_configs(launchers, "11 ", warp_tiled_configs(), launch_gemm_warp_tiled);
  std::vector<std::string> configs = pipelined_configs();
  configs.push_back("auto");
  add_configs(launchers, "12 ", configs, launch_gemm_pipelined);
  add_configs(launchers, "12 ablation ", pipelined_ablations(), launch_gemm_pipelined_ablation);
  return launchers;
}

// The sm_80 tensor-core stages, every variant and tiling.
std::vector<Launcher<MatrixBf16>> sm80_launchers() {
  std::vector<Launcher<MatrixBf16>> launchers;
  add_configs(launchers, "13 ", wmma_configs(), launch_gemm_wmma);
  add_configs(launchers, "14 ", mma_configs(), launch_gemm_mma);
  add_configs(launchers, "15 ", mma_pipelined_configs(), launch_gemm_mma_pipelined);
  return launchers;
}

// The BF16 Hopper stages that need no workspace (sm_90a), every variant.
std::vector<Launcher<MatrixBf16>> hopper_launchers() {
  std::vector<Launcher<MatrixBf16>> launchers;
  add_configs(launchers, "16 ", tma_wgmma_configs(), launch_gemm_tma_wgmma);
  add_configs(launchers, "17 ", warp_specialized_configs(), launch_gemm_warp_specialized);
  add_configs(launchers, "18 ", persistent_configs(), launch_gemm_persistent);
  add_configs(launchers, "19 ", cluster_configs(), launch_gemm_clusters);
  return launchers;
}

// Stage 21's variants, through one workspace (which needs a GPU to exist: these run in [gpu]
// tests).
std::vector<Launcher<MatrixBf16>> stream_k_launchers(const StreamKWorkspace& workspace) {
  std::vector<Launcher<MatrixBf16>> launchers;
  add_configs(launchers, "21 ", stream_k_configs(),
              [&workspace](const std::string& config, MatrixBf16 a, MatrixBf16 b, Matrix c) {
                launch_gemm_stream_k(config, a, b, c, workspace);
              });
  return launchers;
}

// Stage 20's launchers, B^T in a workspace of whole 128-byte rows: n x k, row 0 at the
// start of its own allocation, as TMA needs.
std::vector<Launcher<Matrix>> tf32_launchers(const DeviceMatrix& b_t_buffer) {
  std::vector<Launcher<Matrix>> launchers;
  for (const std::string& config : tf32_configs()) {
    launchers.push_back({"20 TF32 " + config, [=](Matrix a, Matrix b, Matrix c) {
                           launch_gemm_tf32(config, a, b, c);
                         }});
  }
  for (const std::string& config : tf32_transposing_configs()) {
    launchers.push_back({"20 TF32 B^T given " + config,
                         [=, &b_t_buffer](Matrix a, Matrix b, Matrix c) {
                           const Matrix b_t = b_t_buffer.view().sub(0, 0, b.width, b.height);
                           launch_gemm_tf32_transposed(config, a, b_t, c);
                         }});
  }
  return launchers;
}

// ---- The int-index rule: refused before any CUDA call ---------------------------------------

// Operands of matching shapes of which one or more breaks the rule, over a few elements that
// are never touched.
template <class View>
struct RuleBreakers {
  const char* what;
  View a;
  View b;
  Matrix c;
};

template <class View>
std::vector<RuleBreakers<View>> rule_breakers(decltype(View::data) elements, float* c_elements) {
  // 2^28 rows of 8: 2^31 elements, one more than int indexes. INT_MAX - 255 rows of 1: the
  // elements fit, the kEdgeRows rows past them do not.
  constexpr int kHuge = 1 << 28;
  constexpr int kNearMax = INT_MAX - kEdgeRows + 1;
  return {
      {"too many rows", {8, kHuge, 8, elements}, {8, 8, 8, elements}, {8, kHuge, 8, c_elements}},
      {"the edge rows past int",
       {1, kNearMax, 1, elements},
       {1, 1, 1, elements},
       {1, kNearMax, 1, c_elements}},
      {"a negative width (K)", {-1, 8, 8, elements}, {8, -1, 8, elements}, {8, 8, 8, c_elements}},
      {"a stride below the width", {8, 8, 4, elements}, {8, 8, 8, elements}, {8, 8, 8, c_elements}},
      {"C alone with a negative stride",
       {8, 8, 8, elements},
       {8, 8, 8, elements},
       {8, 8, -8, c_elements}},
  };
}

constexpr const char* kRuleText = "kernels index with int";

template <class View>
void require_rule_refused(const std::vector<Launcher<View>>& launchers) {
  REQUIRE_FALSE(launchers.empty());
  alignas(16) std::remove_pointer_t<decltype(View::data)> elements[64] = {};
  alignas(16) float c_elements[64] = {};
  for (const RuleBreakers<View>& views : rule_breakers<View>(elements, c_elements)) {
    for (const Launcher<View>& launcher : launchers) {
      CAPTURE(views.what, launcher.name);
      REQUIRE_THROWS_WITH(launcher.launch(views.a, views.b, views.c), Catch::Contains(kRuleText));
    }
  }
}

// ---- Empty C and K = 0 on the GPU ----------------------------------------------------------

// Shapes (m, n, k): C empty three ways, once with K = 0 too; then K = 0 with C one block and
// with C several blocks of every tiling wide and tall, edges included.
std::vector<test::GemmCase> edge_cases() {
  return {{0, 5, 7}, {5, 0, 7}, {0, 0, 7}, {0, 5, 0}, {5, 3, 0}, {260, 300, 0}};
}

// Each launcher on each edge case, the operands and C views at (1, 1) of NaN-filled buffers
// (Operand: DeviceMatrix or DeviceMatrixBf16): C's view must hold exact zeros, and nothing
// else of C's buffer may change. A launcher that read A or B would make NaN.
template <class Operand, class View>
void require_edges_handled(const std::vector<Launcher<View>>& launchers) {
  REQUIRE_FALSE(launchers.empty());
  for (const test::GemmCase& shape : edge_cases()) {
    Operand a(shape.m + 2, shape.k + 2);
    Operand b(shape.k + 2, shape.n + 2);
    DeviceMatrix c(shape.m + 2, shape.n + 2);
    for (const Launcher<View>& launcher : launchers) {
      CAPTURE(test::describe(shape), launcher.name);
      c.poison();
      REQUIRE_NOTHROW(launcher.launch(a.view().sub(1, 1, shape.m, shape.k),
                                      b.view().sub(1, 1, shape.k, shape.n),
                                      c.view().sub(1, 1, shape.m, shape.n)));
      CUDA_CHECK(cudaDeviceSynchronize());
      HostMatrix c_host(shape.m + 2, shape.n + 2);  // unpadded, as C's buffer: every element
      c.download(c_host.view());
      REQUIRE(test::written_outside(c_host.view(), 1, 1, shape.m, shape.n) == 0);
      long long zeros = 0;
      for (int row = 1; row <= shape.m; ++row) {
        for (int col = 1; col <= shape.n; ++col) zeros += c_host.get(row, col) == 0.0f;
      }
      REQUIRE(zeros == static_cast<long long>(shape.m) * shape.n);
    }
  }
}

// The launchers less the named ones: tilings whose ring needs more shared memory than this GPU
// gives a block, which their launchers refuse (UsageError) and the stages' own tests leave out.
template <class View>
std::vector<Launcher<View>> without(std::vector<Launcher<View>> launchers,
                                    const std::vector<std::string>& names) {
  const auto named = [&names](const Launcher<View>& launcher) {
    return std::find(names.begin(), names.end(), launcher.name) != names.end();
  };
  launchers.erase(std::remove_if(launchers.begin(), launchers.end(), named), launchers.end());
  return launchers;
}

}  // namespace

TEST_CASE("FP32 launchers refuse views that break the int rule", "[launch]") {
  require_rule_refused(fp32_launchers());
}

TEST_CASE("BF16 launchers refuse views that break the int rule", "[launch][bf16]") {
  std::vector<Launcher<MatrixBf16>> launchers = sm80_launchers();
  const std::vector<Launcher<MatrixBf16>> hopper = hopper_launchers();
  launchers.insert(launchers.end(), hopper.begin(), hopper.end());
  require_rule_refused(launchers);
}

TEST_CASE("20 TF32 launchers refuse views that break the int rule", "[launch]") {
  alignas(16) float elements[64] = {};
  const Matrix a{8, 8, 8, elements};
  const Matrix b{8, 8, 8, elements};
  const Matrix c{8, 8, 8, elements};
  // A B (or B^T) whose stride is below its width, yet a multiple of 4 floats: TMA could read it.
  const Matrix short_b{8, 8, 4, elements};
  const Matrix huge_a{8, 1 << 28, 8, elements};
  const Matrix huge_c{8, 1 << 28, 8, elements};
  for (const std::string& config : tf32_configs()) {
    CAPTURE(config);
    REQUIRE_THROWS_WITH(launch_gemm_tf32(config, a, short_b, c),
                        Catch::Contains(kRuleText));
    REQUIRE_THROWS_WITH(launch_gemm_tf32(config, huge_a, b, huge_c),
                        Catch::Contains(kRuleText));
  }
  for (const std::string& config : tf32_transposing_configs()) {
    CAPTURE(config);
    REQUIRE_THROWS_WITH(launch_gemm_tf32_transposed(config, a, short_b, c),
                        Catch::Contains(kRuleText));
    REQUIRE_THROWS_WITH(launch_gemm_tf32_transposed(config, huge_a, b, huge_c),
                        Catch::Contains(kRuleText));
  }
}

TEST_CASE("Transposes refuse views that break the int rule", "[launch]") {
  alignas(16) float elements[64] = {};
  using Transpose = void (*)(Matrix in, Matrix out, int tile, int block_rows);
  const struct {
    const char* what;
    Matrix in;
    Matrix out;
  } breakers[] = {
      {"too many rows", {8, 1 << 28, 8, elements}, {1 << 28, 8, 1 << 28, elements}},
      {"a negative width", {-1, 8, 8, elements}, {8, -1, 8, elements}},
      {"a stride below the width", {8, 8, 4, elements}, {8, 8, 8, elements}},
  };
  for (const Transpose transpose :
       {Transpose{launch_transpose_naive}, Transpose{launch_transpose_shared},
        Transpose{launch_transpose_padded}}) {
    for (const auto& views : breakers) {
      CAPTURE(views.what);
      REQUIRE_THROWS_WITH(transpose(views.in, views.out, 32, 8), Catch::Contains(kRuleText));
    }
  }
}

TEST_CASE("FP32 launchers: empty C is no work and K = 0 gives C = 0", "[gpu][launch]") {
  std::vector<std::string> unfit;
  for (const std::string& config : pipelined_configs()) {
    if (!pipelined_unfit_reason(config).empty()) unfit.push_back("12 " + config);
  }
  require_edges_handled<DeviceMatrix>(without(fp32_launchers(), unfit));
}

TEST_CASE("Transposes: an empty matrix is no work", "[gpu][launch]") {
  using Transpose = void (*)(Matrix in, Matrix out, int tile, int block_rows);
  for (const auto& [rows, cols] : {std::pair{0, 5}, std::pair{5, 0}, std::pair{0, 0}}) {
    DeviceMatrix in(rows + 2, cols + 2);
    DeviceMatrix out(cols + 2, rows + 2);
    for (const Transpose transpose :
         {Transpose{launch_transpose_naive}, Transpose{launch_transpose_shared},
          Transpose{launch_transpose_padded}}) {
      CAPTURE(rows, cols);
      REQUIRE_NOTHROW(
          transpose(in.view().sub(1, 1, rows, cols), out.view().sub(1, 1, cols, rows), 32, 8));
      CUDA_CHECK(cudaDeviceSynchronize());
      HostMatrix out_host(cols + 2, rows + 2);
      out.download(out_host.view());
      REQUIRE(test::written_outside(out_host.view(), 1, 1, cols, rows) == 0);
    }
  }
}

TEST_CASE("sm_80 launchers: empty C is no work and K = 0 gives C = 0", "[gpu][sm80]") {
  std::vector<std::string> unfit;
  for (const std::string& config : mma_pipelined_configs()) {
    if (!mma_pipelined_unfit_reason(config).empty()) unfit.push_back("15 " + config);
  }
  require_edges_handled<DeviceMatrixBf16>(without(sm80_launchers(), unfit));
}

TEST_CASE("Hopper launchers: empty C is no work and K = 0 gives C = 0", "[gpu][sm90]") {
  require_edges_handled<DeviceMatrixBf16>(hopper_launchers());
}

TEST_CASE("21 launchers: the int rule, empty C and K = 0", "[gpu][sm90][stage21]") {
  const StreamKWorkspace workspace;
  require_rule_refused(stream_k_launchers(workspace));
  require_edges_handled<DeviceMatrixBf16>(stream_k_launchers(workspace));
}

TEST_CASE("20 TF32: empty C is no work and K = 0 gives C = 0", "[gpu][sm90][stage20]") {
  // Room for every edge case's B^T (n x k), rows of whole 128-byte lines.
  const DeviceMatrix b_t_buffer(300, 8, transposed_b_stride(8));
  require_edges_handled<DeviceMatrix>(tf32_launchers(b_t_buffer));
}
