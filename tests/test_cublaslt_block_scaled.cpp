// Stage 22's per-block ceiling, cuBLASLt's own block-scaled FP8 (one factor per 1 x 128 of A
// and per 128 x 128 of B), against the host's double reference of the same E4M3 codes and block
// scales (reference_product_fp8), within fp8_gemm_gamma(K, 128) of the magnitude summed, as the
// stage's own per-block variant is checked. The inputs' magnitudes change by powers of two from
// block to block, so that factors read in a wrong layout (A's not transposed, B^T's rows not
// padded) or as their reciprocals miss by a factor of 2 or more, far beyond the bound. Tagged
// [sm90] (cuBLASLt's block scaling is for compute capability 9.0 only) and [cublas] (the
// sanitizer runs leave cuBLAS's kernels out).
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_matrix_fp8.hpp"
#include "common/errors.hpp"
#include "common/harness/cublaslt_fp8.hpp"
#include "common/harness/fp8_gemm_bench.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"
#include "common/matrix_fp8.hpp"
#include "test_support.hpp"

using namespace ladder;

namespace {

constexpr int kBlock = 128;  // cuBLASLt's and the stage's block: 128 elements of K, 128 of N

int blocks(int extent) { return (extent + kBlock - 1) / kBlock; }

// Random values in [-1, 1) times 2^e, e from -3 to 3 by block of block_rows x block_cols
// (neither symmetric in the two block indices nor the same for neighbours): each block's scale
// differs from its neighbours', and from the transposed block's.
HostMatrix blocky_matrix(int height, int width, int block_rows, int block_cols, unsigned seed) {
  HostMatrix m = test::random_matrix(height, width, 0, seed);
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) {
      const int exponent = (3 * (row / block_rows) + 5 * (col / block_cols)) % 7 - 3;
      m.set(row, col, std::ldexp(m.get(row, col), exponent));
    }
  }
  return m;
}

// The stage's per-block operands (launch_gemm_fp8_block_scaled's layouts) on the device, and
// the host's codes and scales they came from.
struct BlockOperands {
  HostMatrixFp8 a_codes;        // m x k
  HostMatrixFp8 b_codes;        // k x n
  BlockScales a_scales;         // 1 x 128 blocks
  BlockScales b_scales;         // 128 x 128 blocks
  DeviceMatrixFp8 a;            // m x k, rows of whole 16 bytes
  DeviceMatrixFp8 b_t;          // n x k
  DeviceMatrix a_dequantize;    // m x ceil(k / 128): 1 / scale
  DeviceMatrix b_t_dequantize;  // ceil(n / 128) x ceil(k / 128)
};

BlockOperands block_operands(const test::GemmCase& shape) {
  const int m = shape.m, n = shape.n, k = shape.k;
  HostMatrix a = blocky_matrix(m, k, 1, kBlock, 1);
  HostMatrix b = blocky_matrix(k, n, kBlock, kBlock, 2);
  BlockOperands ops{HostMatrixFp8(m, k),
                    HostMatrixFp8(k, n),
                    e4m3_block_scales(a.view(), 1, kBlock),
                    e4m3_block_scales(b.view(), kBlock, kBlock),
                    DeviceMatrixFp8(m, k, fp8_stride(k)),
                    DeviceMatrixFp8(n, k, fp8_stride(k)),
                    DeviceMatrix(m, blocks(k)),
                    DeviceMatrix(blocks(n), blocks(k))};
  quantize_e4m3(a.view(), ops.a_scales, ops.a_codes.view());
  quantize_e4m3(b.view(), ops.b_scales, ops.b_codes.view());
  ops.a.upload(ops.a_codes.view());
  ops.b_t.upload(transposed(ops.b_codes.view()).view());
  HostMatrix a_factors(m, blocks(k));
  for (int row = 0; row < m; ++row) {
    for (int s = 0; s < blocks(k); ++s) {
      a_factors.set(row, s, 1.0f / ops.a_scales.at(row, s * kBlock));
    }
  }
  HostMatrix b_t_factors(blocks(n), blocks(k));
  for (int block = 0; block < blocks(n); ++block) {
    for (int s = 0; s < blocks(k); ++s) {
      b_t_factors.set(block, s, 1.0f / ops.b_scales.at(s * kBlock, block * kBlock));
    }
  }
  ops.a_dequantize.upload(a_factors.view());
  ops.b_t_dequantize.upload(b_t_factors.view());
  return ops;
}

// |c - want| <= gamma * sum_k |a_ik b_kj| of the values the codes stand for, at every element
// (NaN fails): the worst element, as check_gemm reports it.
CheckResult check_against(Matrix c, const std::vector<double>& want, BlockOperands& ops,
                          double gamma) {
  const int m = c.height, n = c.width, k = ops.a_codes.view().width;
  std::vector<double> a_values(static_cast<std::size_t>(m) * k);
  std::vector<double> b_t_values(static_cast<std::size_t>(n) * k);
  for (int row = 0; row < m; ++row) {
    for (int kk = 0; kk < k; ++kk) {
      a_values[static_cast<std::size_t>(row) * k + kk] =
          static_cast<float>(ops.a_codes.view().get(row, kk)) / ops.a_scales.at(row, kk);
    }
  }
  for (int col = 0; col < n; ++col) {
    for (int kk = 0; kk < k; ++kk) {
      b_t_values[static_cast<std::size_t>(col) * k + kk] =
          static_cast<float>(ops.b_codes.view().get(kk, col)) / ops.b_scales.at(kk, col);
    }
  }
  CheckResult result;
  double worst = -1;
  for (int row = 0; row < m; ++row) {
    for (int col = 0; col < n; ++col) {
      double magnitude = 0;
      for (int kk = 0; kk < k; ++kk) {
        magnitude += std::fabs(a_values[static_cast<std::size_t>(row) * k + kk] *
                               b_t_values[static_cast<std::size_t>(col) * k + kk]);
      }
      const double expected = want[static_cast<std::size_t>(row) * n + col];
      const double error = std::fabs(c.get(row, col) - expected);
      const double bound = gamma * magnitude;
      ++result.checked;
      const bool within = error <= bound;  // false for NaN
      const double excess = within ? error / (bound > 0 ? bound : 1) : HUGE_VAL;
      if (excess > worst) {
        worst = excess;
        result.row = row;
        result.col = col;
        result.got = c.get(row, col);
        result.want = expected;
        result.error = error;
        result.bound = bound;
      }
      result.ok = result.ok && within;
    }
  }
  return result;
}

}  // namespace

TEST_CASE("cuBLASLt block-scaled FP8 matches the per-block reference", "[gpu][sm90][cublas]") {
  // 196 x 264 x 640: a partial last block of N (264 = 2 x 128 + 8) and 5 blocks of K, so
  // B^T's factor rows are padded to 8; 256 x 384 x 1024: whole blocks, rows of 8 unpadded.
  for (const test::GemmCase shape :
       {test::GemmCase{196, 264, 640}, test::GemmCase{256, 384, 1024}}) {
    CAPTURE(test::describe(shape));
    BlockOperands ops = block_operands(shape);
    const CublasLtBlockFactors factors(ops.a_dequantize.view(), ops.b_t_dequantize.view());
    REQUIRE(factors.a().height == blocks(shape.k));
    REQUIRE(factors.a().width == shape.m);
    REQUIRE(factors.a().stride == shape.m);
    REQUIRE(factors.b_t().stride % 4 == 0);
    DeviceMatrix c(shape.m, shape.n);
    CublasLtFp8 cublaslt;
    const std::string refusal = CublasLtFp8::block_scaled_refusal(shape.m, shape.n);
    INFO(refusal);
    REQUIRE(refusal.empty());
    REQUIRE(cublaslt.supports_block_scaled(ops.a.view(), ops.b_t.view(), factors, c.view()));
    cublaslt.block_scaled(ops.a.view(), ops.b_t.view(), factors, c.view());
    CUDA_CHECK(cudaDeviceSynchronize());
    HostMatrix got(shape.m, shape.n);
    c.download(got.view());
    const std::vector<double> want =
        reference_product_fp8(ops.a_codes.view(), ops.a_scales, ops.b_codes.view(), ops.b_scales);
    const CheckResult check = check_against(got.view(), want, ops, fp8_gemm_gamma(shape.k, kBlock));
    INFO(check.summary());
    REQUIRE(check.ok);
    REQUIRE(check.checked == static_cast<long long>(shape.m) * shape.n);
  }
}

TEST_CASE("cuBLASLt block-scaled FP8 refuses what its documentation rules out",
          "[gpu][sm90][cublas]") {
  // M and N (our n and m) must be multiples of 4: refused before cuBLASLt is asked.
  REQUIRE_THAT(CublasLtFp8::block_scaled_refusal(6, 8), Catch::Contains("multiples of 4"));
  REQUIRE_THAT(CublasLtFp8::block_scaled_refusal(8, 6), Catch::Contains("multiples of 4"));
  DeviceMatrixFp8 a(6, 128);
  DeviceMatrixFp8 b_t(8, 128);
  DeviceMatrix a_factors(6, 1);
  DeviceMatrix b_t_factors(1, 1);
  DeviceMatrix c(6, 8);
  const CublasLtBlockFactors factors(a_factors.view(), b_t_factors.view());
  CublasLtFp8 cublaslt;
  REQUIRE_FALSE(cublaslt.supports_block_scaled(a.view(), b_t.view(), factors, c.view()));
  REQUIRE_THROWS_AS(cublaslt.block_scaled(a.view(), b_t.view(), factors, c.view()), CudaError);
  // Factors made for other operands (two blocks of K where there is one).
  DeviceMatrix two_blocks(6, 2);
  const CublasLtBlockFactors wrong(two_blocks.view(), b_t_factors.view());
  REQUIRE_THROWS_AS(cublaslt.supports_block_scaled(a.view(), b_t.view(), wrong, c.view()),
                    std::invalid_argument);
}
