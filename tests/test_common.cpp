// The shared pieces every stage relies on: views, inputs, the checks, timers, options,
// the report.
#include <catch2/catch.hpp>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/errors.hpp"
#include "common/harness/fill.hpp"
#include "common/harness/memory_budget.hpp"
#include "common/harness/gpu_required.hpp"
#include "common/harness/program.hpp"
#include "common/harness/report.hpp"
#include "common/harness/timing.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"
#include "common/matrix_owners.hpp"
#include "common/tile_dispatch.hpp"
#include "test_support.hpp"

using namespace ladder;

TEST_CASE("a view honours its stride", "[common]") {
  HostMatrix m(3, 4, 6);
  REQUIRE(m.view().stride == 6);
  poison(m.view());
  m.view().set(2, 3, 5.0f);
  REQUIRE(m.view().data[2 * 6 + 3] == 5.0f);
  REQUIRE(m.get(2, 3) == 5.0f);

  const Matrix block = m.view().sub(1, 2, 2, 2);
  REQUIRE(block.width == 2);
  REQUIRE(block.height == 2);
  REQUIRE(block.stride == 6);
  REQUIRE(block.get(1, 1) == 5.0f);

  HostMatrix plain(3, 4);
  REQUIRE(plain.stride() == 4);
}

TEST_CASE("matrix shapes are validated", "[common]") {
  REQUIRE_THROWS_AS(HostMatrix(0, 4), UsageError);
  REQUIRE_THROWS_AS(HostMatrix(4, -1), UsageError);
  REQUIRE_THROWS_AS(HostMatrix(4, 8, 7), UsageError);
  REQUIRE_THROWS_WITH(check_matrix_shape(100000, 100000, 100000),
                      Catch::Contains("too large"));
  // The limit keeps room for the kEdgeRows rows past the matrix that edge tiles address:
  // 46340^2 fits in 2^31 elements, but not with 256 more rows.
  REQUIRE_THROWS_WITH(check_matrix_shape(46340, 46340, 46340), Catch::Contains("too large"));
  REQUIRE_NOTHROW(check_matrix_shape(46000, 46000, 46000));
}

TEST_CASE("shapes next to INT_MAX are refused, not wrapped around", "[common]") {
  // height + kEdgeRows would overflow int here: the sum must be formed in a wider type.
  REQUIRE_THROWS_WITH(check_matrix_shape(2147483600, 1, 1), Catch::Contains("too large"));
  REQUIRE_THROWS_WITH(check_matrix_shape(INT_MAX, 1, 1), Catch::Contains("too large"));
  REQUIRE_THROWS_WITH(check_matrix_shape(1, INT_MAX, INT_MAX), Catch::Contains("too large"));
  // The largest height a stride of 1 allows: its last edge row is element INT_MAX - 1.
  REQUIRE_NOTHROW(check_matrix_shape(INT_MAX - kEdgeRows, 1, 1));
  REQUIRE_THROWS_AS(check_matrix_shape(INT_MAX - kEdgeRows + 1, 1, 1), UsageError);
}

TEST_CASE("a problem is refused when it exceeds the memory available", "[common]") {
  constexpr std::uint64_t gib = 1ull << 30;
  REQUIRE_NOTHROW(check_memory_fits("p", "host memory", 10 * gib, 16 * gib));
  REQUIRE_NOTHROW(check_memory_fits("p", "host memory", 16 * gib, 16 * gib));
  REQUIRE_THROWS_AS(check_memory_fits("p", "host memory", 16 * gib + 1, 16 * gib), UsageError);
  // 45000^3 on the CPU: 7.5 GiB for each of A, B and C, 30.2 GiB of reference.
  REQUIRE_THROWS_WITH(
      check_memory_fits("A 45000x45000 * B 45000x45000", "host memory", 53 * gib, 23 * gib),
      Catch::Contains("A 45000x45000 * B 45000x45000 needs 53.0 GiB of host memory, but only "
                      "23.0 GiB is available"));
  REQUIRE_THROWS_AS(check_memory_fits("p", "GPU memory", 1, 0), UsageError);
}

TEST_CASE("the host memory available is MemAvailable plus SwapFree", "[common]") {
  const std::string meminfo =
      "MemTotal:       32000000 kB\n"
      "MemFree:         1000000 kB\n"
      "MemAvailable:   24000000 kB\n"
      "SwapTotal:       2000000 kB\n"
      "SwapFree:        1000000 kB\n";
  REQUIRE(available_host_bytes(meminfo) == std::optional<std::uint64_t>(25000000ull * 1024));
  REQUIRE(available_host_bytes("MemAvailable: 4 kB\n") == std::optional<std::uint64_t>(4096));
  REQUIRE_FALSE(available_host_bytes("MemTotal: 4 kB\n").has_value());
  REQUIRE_FALSE(available_host_bytes("").has_value());
}

TEST_CASE("a process's memory cgroup is read from /proc/self/cgroup", "[common]") {
  // cgroup v2 alone: one line, no controllers named.
  const auto v2 = memory_cgroup("0::/user.slice/user-1000.slice/session-2.scope\n");
  REQUIRE(v2.has_value());
  REQUIRE(v2->root == "/sys/fs/cgroup");
  REQUIRE(v2->path == "/user.slice/user-1000.slice/session-2.scope");
  REQUIRE(v2->limit_file == "memory.max");
  REQUIRE(v2->usage_file == "memory.current");
  // Both mounted (hybrid): memory is v1's controller, wherever its line is.
  const auto hybrid = memory_cgroup(
      "9:name=systemd:/\n4:memory:/process_api/ab12\n3:cpuset:/\n0::/\n");
  REQUIRE(hybrid.has_value());
  REQUIRE(hybrid->root == "/sys/fs/cgroup/memory");
  REQUIRE(hybrid->path == "/process_api/ab12");
  REQUIRE(hybrid->limit_file == "memory.limit_in_bytes");
  REQUIRE(hybrid->usage_file == "memory.usage_in_bytes");
  // A v1 hierarchy may hold several controllers.
  const auto shared = memory_cgroup("0::/\n5:cpu,memory:/kubepods/pod1\n");
  REQUIRE(shared.has_value());
  REQUIRE(shared->root == "/sys/fs/cgroup/memory");
  REQUIRE(shared->path == "/kubepods/pod1");
  REQUIRE_FALSE(memory_cgroup("3:cpuset:/\n2:memory_other:/x\n").has_value());
  REQUIRE_FALSE(memory_cgroup("").has_value());
}

TEST_CASE("cgroup memory left: the limit less usage, cache aside", "[common]") {
  constexpr std::uint64_t gib = 1ull << 30;
  using Bytes = std::optional<std::uint64_t>;
  // v2: 8 GiB allowed, 3 GiB held of which 1 GiB is inactive file cache: 6 GiB left.
  REQUIRE(cgroup_bytes_left("8589934592\n", "3221225472\n",
                            "anon 2147483648\nfile 1073741824\ninactive_file 1073741824\n") ==
          Bytes(6 * gib));
  // v1: total_inactive_file counts the children too, inactive_file the cgroup alone.
  REQUIRE(cgroup_bytes_left("4294967296\n", "3221225472\n",
                            "inactive_file 0\ntotal_inactive_file 1073741824\n") ==
          Bytes(2 * gib));
  REQUIRE(cgroup_bytes_left("4294967296\n", "1073741824\n", "") == Bytes(3 * gib));
  // Held past the limit (the kernel reclaims lazily): nothing left, not a wrap-around.
  REQUIRE(cgroup_bytes_left("1073741824\n", "2147483648\n", "") == Bytes(0));
  // More cache than usage (counted at different moments): the whole limit.
  REQUIRE(cgroup_bytes_left("1073741824\n", "100\n", "inactive_file 200\n") == Bytes(gib));
  // No limit ("max"), or a file not read.
  REQUIRE_FALSE(cgroup_bytes_left("max\n", "3221225472\n", "").has_value());
  REQUIRE_FALSE(cgroup_bytes_left("", "3221225472\n", "").has_value());
  REQUIRE_FALSE(cgroup_bytes_left("8589934592\n", "", "").has_value());
}

TEST_CASE("the host memory check admits a byte and refuses an exabyte", "[common]") {
  REQUIRE_NOTHROW(require_host_memory("p", 1));
  REQUIRE_THROWS_AS(require_host_memory("p", 1ull << 60), UsageError);
}

TEST_CASE("random inputs depend on the seed and the position only", "[common]") {
  HostMatrix plain(5, 7);
  HostMatrix padded(5, 7, 10);
  fill_random(plain.view(), 42);
  fill_random(padded.view(), 42);
  HostMatrix other(5, 7);
  fill_random(other.view(), 43);
  int differences = 0;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 7; ++j) {
      REQUIRE(plain.get(i, j) == padded.get(i, j));
      REQUIRE(plain.get(i, j) >= -1.0f);
      REQUIRE(plain.get(i, j) < 1.0f);
      differences += plain.get(i, j) != other.get(i, j);
    }
  }
  REQUIRE(differences > 30);
  REQUIRE(plain.get(0, 0) != plain.get(0, 1));
  REQUIRE(padding_is_poisoned(padded.view()));
}

TEST_CASE("poison turns every element into NaN", "[common]") {
  HostMatrix m(4, 3, 5);
  fill_random(m.view(), 1);
  poison(m.view());
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 5; ++j) REQUIRE(std::isnan(m.view().get(i, j)));
  }
}

TEST_CASE("round_to_tf32 keeps 10 mantissa bits and ties to even in the view", "[common]") {
  HostMatrix m(1, 6, 8);
  poison(m.view());
  const float ulp = std::ldexp(1.0f, -10);  // TF32's spacing just above 1
  const float values[] = {1.0f,
                          1.0f + ulp / 2,                          // a tie: to even, 1
                          1.0f + 3 * ulp / 2,                      // a tie: to even, 1 + 2 ulp
                          1.0f + ulp / 2 + std::ldexp(1.0f, -23),  // past the tie: up
                          -(1.0f + ulp / 4),                       // below the tie: down
                          2.0f - ulp / 2};                         // carries into the exponent
  const float want[] = {1.0f, 1.0f, 1.0f + 2 * ulp, 1.0f + ulp, -1.0f, 2.0f};
  for (int col = 0; col < 6; ++col) m.view().set(0, col, values[col]);
  round_to_tf32(m.view());
  for (int col = 0; col < 6; ++col) {
    CAPTURE(col);
    REQUIRE(m.view().get(0, col) == want[col]);
  }
  REQUIRE(std::isnan(m.view().get(0, 6)));
  REQUIRE(std::isnan(m.view().get(0, 7)));
}

TEST_CASE("host and device poison write the same bits: every byte 0xFF", "[common]") {
  HostMatrix m(2, 3, 4);
  poison(m.view());
  for (int i = 0; i < 2 * 4; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, m.view().data + i, sizeof bits);
    REQUIRE(bits == 0xFFFFFFFFu);  // what cudaMemset(.., kPoisonByte, ..) leaves
  }
}

namespace {

// A float matrix product whose dot products are summed in the order `order` gives:
// forward, backward, pairwise (tree), or with fused multiply-adds.
enum class Order { forward, backward, pairwise, fused };

float dot(const std::vector<float>& x, const std::vector<float>& y, int lo, int hi, Order order) {
  if (order == Order::pairwise && hi - lo > 8) {
    const int mid = (lo + hi) / 2;
    return dot(x, y, lo, mid, order) + dot(x, y, mid, hi, order);
  }
  float sum = 0.0f;
  for (int i = lo; i < hi; ++i) {
    const int k = order == Order::backward ? hi - 1 - (i - lo) : i;
    sum = order == Order::fused ? std::fma(x[k], y[k], sum) : sum + x[k] * y[k];
  }
  return sum;
}

HostMatrix float_gemm(Matrix a, Matrix b, Order order) {
  HostMatrix c(a.height, b.width);
  for (int i = 0; i < a.height; ++i) {
    std::vector<float> row(a.width);
    for (int k = 0; k < a.width; ++k) row[k] = a.get(i, k);
    for (int j = 0; j < b.width; ++j) {
      std::vector<float> col(a.width);
      for (int k = 0; k < a.width; ++k) col[k] = b.get(k, j);
      c.set(i, j, dot(row, col, 0, a.width, order));
    }
  }
  return c;
}

}  // namespace

TEST_CASE("the GEMM bound accepts every correct float result up to K = 4096", "[common][bound]") {
  const int k = GENERATE(1, 2, 7, 64, 333, 1024, 4096);
  const auto order = GENERATE(Order::forward, Order::backward, Order::pairwise, Order::fused);
  const bool all_positive = GENERATE(false, true);
  CAPTURE(k, static_cast<int>(order), all_positive);
  HostMatrix a(6, k);
  HostMatrix b(k, 5);
  fill_random(a.view(), 7);
  fill_random(b.view(), 8);
  if (all_positive) {  // no cancellation: the largest rounding error per unit of magnitude
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < k; ++j) a.set(i, j, std::fabs(a.get(i, j)));
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < 5; ++j) b.set(i, j, std::fabs(b.get(i, j)));
  }
  HostMatrix c = float_gemm(a.view(), b.view(), order);
  const CheckResult check = check_gemm(c.view(), reference_gemm(a.view(), b.view()), k);
  INFO(check.summary());
  REQUIRE(check.ok);
  REQUIRE(check.checked == 30);
}

TEST_CASE("the GEMM bound flags a single element that is one term off", "[common][bound]") {
  // One extra or missing product term is what a wrong index in a kernel produces.
  const int k = GENERATE(1, 8, 64, 1024);
  CAPTURE(k);
  HostMatrix a(9, k);
  HostMatrix b(k, 11);
  fill_random(a.view(), 3);
  fill_random(b.view(), 4);
  const GemmReference ref = reference_gemm(a.view(), b.view());
  HostMatrix c = float_gemm(a.view(), b.view(), Order::forward);
  REQUIRE(check_gemm(c.view(), ref, k).ok);
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 11; ++j) {
      const float original = c.get(i, j);
      const double average_term = ref.magnitude[i * 11 + j] / k;
      c.set(i, j, static_cast<float>(original + average_term));
      const CheckResult check = check_gemm(c.view(), ref, k);
      CAPTURE(i, j, check.summary());
      REQUIRE_FALSE(check.ok);
      REQUIRE(check.row == i);
      REQUIRE(check.col == j);
      c.set(i, j, original);
    }
  }
}

TEST_CASE("the tensor-core bound is K * 2^-22, twice the FP32 one", "[common][bound]") {
  REQUIRE(tensor_gemm_gamma(1) == std::ldexp(1.0, -22));
  REQUIRE(tensor_gemm_gamma(4096) == std::ldexp(1.0, -10));
  for (const int k : {1, 15, 16, 17, 33, 4095, 8192}) {
    CAPTURE(k);
    REQUIRE(tensor_gemm_gamma(k) == k * std::ldexp(1.0, -22));
    REQUIRE(tensor_gemm_gamma(k) == 2 * gemm_gamma(k));
  }
}

TEST_CASE("the GEMM check fails on NaN and on a shape mismatch", "[common][bound]") {
  HostMatrix a(4, 4);
  HostMatrix b(4, 4);
  fill_random(a.view(), 1);
  fill_random(b.view(), 2);
  const GemmReference ref = reference_gemm(a.view(), b.view());
  HostMatrix c = float_gemm(a.view(), b.view(), Order::forward);
  c.set(3, 1, NAN);
  const CheckResult check = check_gemm(c.view(), ref, 4);
  REQUIRE_FALSE(check.ok);
  REQUIRE(check.row == 3);
  REQUIRE(check.col == 1);
  HostMatrix wrong_shape(4, 5);
  REQUIRE_FALSE(check_gemm(wrong_shape.view(), ref, 4).ok);
}

TEST_CASE("the transpose check is exact", "[common]") {
  HostMatrix in(3, 5);
  fill_random(in.view(), 9);
  HostMatrix out(5, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) out.set(j, i, in.get(i, j));
  REQUIRE(check_transpose(in.view(), out.view()).ok);
  REQUIRE(check_transpose(in.view(), out.view()).checked == 15);

  float value = out.get(4, 2);
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  bits ^= 1u;  // one ulp
  std::memcpy(&value, &bits, sizeof bits);
  out.set(4, 2, value);
  const CheckResult check = check_transpose(in.view(), out.view());
  REQUIRE_FALSE(check.ok);
  REQUIRE(check.row == 4);
  REQUIRE(check.col == 2);
  REQUIRE_FALSE(check_transpose(in.view(), in.view()).ok);  // 3x5 is not 5x3
  REQUIRE(check_copy(in.view(), in.view()).ok);
}

TEST_CASE("the host timer measures elapsed time", "[common][timing]") {
  HostTimer timer;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double ms = timer.elapsed_ms();
  REQUIRE(ms >= 19.0);
  REQUIRE(ms < 5000.0);
}

TEST_CASE("measure warms up, repeats and takes the median", "[common][timing]") {
  std::vector<double> samples{5, 1, 4, 2, 3, 100};  // warm-up value first, then five
  std::size_t next = 0;
  const Timing timing = measure(Repeats{1, 5}, [&] { return samples.at(next++); });
  REQUIRE(next == 6);
  REQUIRE(timing.runs == 5);
  REQUIRE(timing.median_ms == 3.0);
  REQUIRE(timing.min_ms == 1.0);
  REQUIRE(summarize({4, 1, 3, 2}).median_ms == 2.5);

  int prepared = 0;
  int worked = 0;
  const Timing host = measure_host(Repeats{2, 3}, [&] { ++worked; }, [&] { ++prepared; });
  REQUIRE(prepared == 5);
  REQUIRE(worked == 5);
  REQUIRE(host.runs == 3);
  REQUIRE(host.min_ms >= 0.0);
  REQUIRE_THROWS(summarize({}));
}

namespace {

struct Parsed {
  GemmShape shape;
  RunOptions options;
  std::string tile = "16";
  bool help_printed = false;
};

Parsed parse(std::vector<std::string> args) {
  Parsed parsed;
  Cli cli("test", "test program");
  add_gemm_shape(cli, parsed.shape);
  add_run_options(cli, parsed.options);
  cli.add_choice("--tile", &parsed.tile, {"8", "16", "32"}, "tile");
  std::vector<char*> argv{const_cast<char*>("test")};
  for (auto& arg : args) argv.push_back(arg.data());
  parsed.help_printed = !cli.parse(static_cast<int>(argv.size()), argv.data());
  return parsed;
}

}  // namespace

TEST_CASE("options accept good input", "[common][cli]") {
  const Parsed parsed = parse({"--m", "64", "--n=32", "--k", "7", "--reps", "9", "--warmup=0",
                               "--seed", "123", "--csv", "--tile", "32"});
  REQUIRE(parsed.shape.m == 64);
  REQUIRE(parsed.shape.n == 32);
  REQUIRE(parsed.shape.k == 7);
  REQUIRE(parsed.options.repeats.timed == 9);
  REQUIRE(parsed.options.repeats.warmup == 0);
  REQUIRE(parsed.options.seed == 123);
  REQUIRE(parsed.options.csv);
  REQUIRE(parsed.tile == "32");
  REQUIRE_FALSE(parsed.help_printed);

  const Parsed defaults = parse({});
  REQUIRE(defaults.shape.m == 1920);
  REQUIRE(defaults.shape.k == 1024);
  REQUIRE(defaults.shape.n == 1280);
  REQUIRE(parse({"--help"}).help_printed);
}

TEST_CASE("options reject bad input with a message naming the problem", "[common][cli]") {
  using Catch::Contains;
  REQUIRE_THROWS_WITH(parse({"--bogus"}), Contains("unknown option '--bogus'"));
  REQUIRE_THROWS_WITH(parse({"--m"}), Contains("--m needs a value"));
  REQUIRE_THROWS_WITH(parse({"--m", "0"}), Contains("--m must be at least 1"));
  REQUIRE_THROWS_WITH(parse({"--n", "-4"}), Contains("--n must be at least 1"));
  REQUIRE_THROWS_WITH(parse({"--k", "12x"}), Contains("--k needs a whole number"));
  REQUIRE_THROWS_WITH(parse({"--k", ""}), Contains("--k needs a whole number"));
  REQUIRE_THROWS_WITH(parse({"--m", "99999999999999999999"}), Contains("--m is too large"));
  REQUIRE_THROWS_WITH(parse({"--seed", "99999999999999999999"}), Contains("--seed is too large"));
  REQUIRE_THROWS_WITH(parse({"--m", "3000000000"}), Contains("--m must be at most 2147483647"));
  REQUIRE_THROWS_WITH(parse({"--seed", "-1"}), Contains("--seed must not be negative"));
  REQUIRE_THROWS_WITH(parse({"--seed", "7e3"}), Contains("--seed needs a whole number"));
  REQUIRE(parse({"--seed", "18446744073709551615"}).options.seed == 18446744073709551615ull);
  REQUIRE_THROWS_WITH(parse({"--tile", "12"}), Contains("--tile must be one of 8|16|32"));
  REQUIRE_THROWS_WITH(parse({"--csv=yes"}), Contains("--csv takes no value"));
  REQUIRE_THROWS_WITH(parse({"--m", "100000", "--k", "100000"}), Contains("too large"));
  REQUIRE_THROWS_AS(parse({"--reps", "0"}), UsageError);
}

TEST_CASE("GPU programs flush L2 before each timed run unless told --l2 warm", "[common][cli]") {
  using Catch::Contains;
  const auto parse_l2 = [](RunOptions options, std::vector<std::string> args) {
    Cli cli("test", "test program");
    add_run_options(cli, options);
    std::vector<char*> argv{const_cast<char*>("test")};
    for (auto& arg : args) argv.push_back(arg.data());
    cli.parse(static_cast<int>(argv.size()), argv.data());
    return options;
  };
  REQUIRE(parse_l2(gpu_run_defaults(), {}).l2 == "flushed");
  REQUIRE(parse_l2(gpu_run_defaults(), {}).flush_l2());
  REQUIRE(parse_l2(gpu_run_defaults(), {"--l2", "warm"}).l2 == "warm");
  REQUIRE_FALSE(parse_l2(gpu_run_defaults(), {"--l2=warm"}).flush_l2());
  REQUIRE_THROWS_WITH(parse_l2(gpu_run_defaults(), {"--l2", "hot"}),
                      Contains("--l2 must be one of flushed|warm"));
  // CPU programs have no GPU cache to flush, so no such option.
  REQUIRE(cpu_run_defaults().l2.empty());
  REQUIRE_THROWS_WITH(parse_l2(cpu_run_defaults(), {"--l2", "warm"}),
                      Contains("unknown option '--l2'"));
}

TEST_CASE("the L2 flush writes twice the cache's size", "[common][timing]") {
  REQUIRE(l2_flush_bytes(50u << 20) == 100u << 20);  // the H100's 50 MB
  REQUIRE(l2_flush_bytes(0) == 0);
}

TEST_CASE("help counts a long list of choices; a wrong value lists them all",
          "[common][cli]") {
  std::vector<std::string> tilings;
  for (int i = 0; i < 20; ++i) tilings.push_back("tiling_number_" + std::to_string(i));
  std::string config = tilings.front();
  std::string depth = "16";
  Cli cli("test", "test program");
  cli.add_choice("--config", &config, tilings, "the tiling");
  cli.add_choice("--bk", &depth, {"16", "8"}, "the slice depth");
  REQUIRE_THAT(cli.usage(), Catch::Contains("the tiling (20 choices; a wrong value lists them)"));
  REQUIRE_THAT(cli.usage(), Catch::Contains("the slice depth (16|8)"));
  std::vector<const char*> argv{"test", "--config", "nope"};
  REQUIRE_THROWS_WITH(cli.parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data())),
                      Catch::Contains("tiling_number_0|tiling_number_1|") &&
                          Catch::Contains("tiling_number_19, got 'nope'"));
}

TEST_CASE("the help lists every option's text in one column, --help included", "[common][cli]") {
  GemmShape shape;
  RunOptions options;
  Cli cli("test", "test program");
  add_gemm_shape(cli, shape);
  add_run_options(cli, options);
  std::istringstream usage(cli.usage());
  int option_lines = 0;
  bool help_listed = false;
  for (std::string line; std::getline(usage, line);) {
    if (line.rfind("  --", 0) != 0) continue;
    CAPTURE(line);
    ++option_lines;
    help_listed = help_listed || line.rfind("  --help ", 0) == 0;
    REQUIRE(line.size() > 25);
    REQUIRE(line[24] == ' ');  // the name column ends here for every option
    REQUIRE(line[25] != ' ');  // and the help starts right after it
  }
  REQUIRE(option_lines == 8);  // --m --n --k --reps --warmup --seed --csv --help
  REQUIRE(help_listed);
  REQUIRE_THAT(cli.usage(), Catch::Contains("fewer than 2^31 elements"));
}

TEST_CASE("LADDER_REQUIRE_GPU makes no usable GPU a failure, not a skip", "[common][program]") {
  REQUIRE_FALSE(gpu_required(nullptr));
  REQUIRE_FALSE(gpu_required(""));
  REQUIRE_FALSE(gpu_required("0"));
  REQUIRE(gpu_required("1"));
  REQUIRE(gpu_required("yes"));

  REQUIRE(no_usable_gpu("test: ", "no usable CUDA device: none here", false) == kExitSkipped);
  REQUIRE(no_usable_gpu("test: ", "no usable CUDA device: none here", true) == kExitFailure);
  // The programs follow the variable of the environment these tests run in.
  char program[] = "test";
  char* argv[] = {program, nullptr};
  const auto no_device = [](int, char**) -> int { throw NoDeviceError("none here"); };
  REQUIRE(run_program("test", no_device, 1, argv) ==
          (gpu_required() ? kExitFailure : kExitSkipped));
}

TEST_CASE("a check's summary counts elements in the singular and the plural", "[common]") {
  HostMatrix one(1, 1);
  fill_random(one.view(), 1);
  const std::string single = check_copy(one.view(), one.view()).summary();
  REQUIRE_THAT(single, Catch::StartsWith("ok: 1 element, worst at (0, 0)"));
  HostMatrix two(1, 2);
  fill_random(two.view(), 1);
  REQUIRE_THAT(check_copy(two.view(), two.view()).summary(), Catch::StartsWith("ok: 2 elements,"));
}

namespace {

Measurement timed_row(const std::string& variant, Role role, double median_ms, int warmups) {
  Measurement row;
  row.variant = variant;
  row.role = role;
  row.timing = Timing{median_ms, median_ms, 5, warmups};
  row.work = 1e9;
  return row;
}

}  // namespace

TEST_CASE("the table says warm-up only where there was one", "[common][report]") {
  using Catch::Contains;
  Report warmed("stage", "problem", "device");
  warmed.add(timed_row("kernel", Role::stage, 2.0, 3));
  REQUIRE_THAT(warmed.table_text(),
               Contains("median and minimum of 5 timed runs after warm-up.\n"));

  Report cold("stage", "problem", "device");
  cold.add(timed_row("kernel", Role::stage, 2.0, 0));
  REQUIRE_THAT(cold.table_text(), Contains("median and minimum of 5 timed runs.\n"));
  REQUIRE_THAT(cold.table_text(), !Contains("warm-up"));

  Report once("stage", "problem", "device");
  Measurement single = timed_row("kernel", Role::stage, 2.0, 0);
  single.timing.runs = 1;
  once.add(single);
  REQUIRE_THAT(once.table_text(), Contains("median and minimum of 1 timed run.\n"));
}

TEST_CASE("vs base is empty on a row that is its own base", "[common][report]") {
  using Catch::Contains;
  Report lone("stage", "problem", "device");
  lone.add(timed_row("only kernel", Role::stage, 2.0, 1));
  REQUIRE_THAT(lone.table_text(), !Contains("1.00x"));

  Report pair("stage", "problem", "device");
  pair.add(timed_row("first", Role::stage, 2.0, 1));
  pair.add(timed_row("second", Role::stage, 1.0, 1));
  REQUIRE_THAT(pair.table_text(), !Contains("1.00x"));
  REQUIRE_THAT(pair.table_text(), Contains("2.00x"));

  Report with_base("stage", "problem", "device");
  with_base.add(timed_row("previous", Role::baseline, 3.0, 1));
  with_base.add(timed_row("this one", Role::stage, 1.0, 1));
  REQUIRE_THAT(with_base.table_text(), !Contains("1.00x"));
  REQUIRE_THAT(with_base.table_text(), Contains("3.00x"));
}

TEST_CASE("CSV leaves pct_of_ceiling empty where there is no ceiling", "[common][report]") {
  using Catch::Contains;
  Report report("stage", "problem", "device");
  report.add(timed_row("kernel", Role::stage, 2.0, 1));
  Measurement copies = timed_row("copies", Role::transfer, 4.0, 1);
  copies.unit = "GB/s";
  report.add(copies);
  const std::string without = report.csv_text();
  REQUIRE_THAT(without, Contains("stage,kernel,stage,problem,device,2.000000,2.000000,5,"
                                 "500.000,GFLOP/s,,n/a,\n"));
  REQUIRE_THAT(without, Contains(",GB/s,,n/a,\n"));
  REQUIRE_THAT(without, !Contains("0.00,n/a"));

  report.add(timed_row("library", Role::ceiling, 1.0, 1));
  const std::string with = report.csv_text();
  REQUIRE_THAT(with, Contains(",GFLOP/s,50.00,n/a,\n"));
  REQUIRE_THAT(with, Contains(",GFLOP/s,100.00,n/a,\n"));
  REQUIRE_THAT(with, Contains(",GB/s,,n/a,\n"));  // transfers never compare with a ceiling
}

TEST_CASE("the report says whether L2 was flushed, in the header and in CSV", "[common][report]") {
  using Catch::Contains;
  for (const std::string l2 : {"flushed", "warm"}) {
    Report report("stage", "problem", "device");
    Measurement row = timed_row("kernel", Role::stage, 2.0, 1);
    row.l2 = l2;
    report.add(row);
    CAPTURE(l2);
    REQUIRE_THAT(report.table_text(), Contains("on device\nL2 cache " + l2));
    REQUIRE_THAT(report.csv_text(), Contains(",pct_of_ceiling,verified,l2\n"));
    REQUIRE_THAT(report.csv_text(), Contains(",n/a," + l2 + "\n"));
  }
  Report cpu("stage", "problem", "cpu");
  cpu.add(timed_row("kernel", Role::stage, 2.0, 1));
  REQUIRE_THAT(cpu.table_text(), !Contains("L2"));
}

TEST_CASE("the tile tables pick one instantiation per supported size", "[common][dispatch]") {
  using Catch::Contains;
  const auto tile_of = [](auto TILE) { return static_cast<int>(TILE); };
  for (const int tile : {8, 16, 32}) REQUIRE(gemm_tiles(tile, tile_of) == tile);
  REQUIRE_THROWS_AS(gemm_tiles(12, tile_of), std::invalid_argument);
  REQUIRE_THROWS_WITH(gemm_tiles(64, tile_of), Contains("got 64"));

  const auto layout_of = [](auto TILE, auto BLOCK_ROWS) {
    return std::to_string(TILE) + "x" + std::to_string(BLOCK_ROWS);
  };
  for (const char* layout : {"32x32", "32x8", "16x16", "16x4"}) {
    const int tile = std::stoi(layout);
    const int block_rows = std::stoi(std::string(layout).substr(3));
    REQUIRE(transpose_layouts(tile, block_rows, layout_of) == layout);
  }
  REQUIRE_THROWS_AS(transpose_layouts(8, 8, layout_of), std::invalid_argument);
  REQUIRE_THROWS_WITH(transpose_layouts(32, 16, layout_of),
                      Contains("tile 32 with 16 block rows"));
}
