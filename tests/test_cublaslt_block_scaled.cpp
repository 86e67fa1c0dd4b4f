// Stage 22's per-block ceiling, cuBLASLt's own block-scaled FP8 (one factor per 1 x 128 of A
// and per 128 x 128 of B), against the exact products of the values its E4M3 codes and block
// factors stand for (BlockFp8Operands' widened operands), within fp8_gemm_gamma(K, 128) of the
// magnitude summed, as the stage's own per-block variant is checked. The inputs' magnitudes
// change by powers of two from block to block, so that factors read in a wrong layout (A's not
// transposed, B^T's rows not padded) or as their reciprocals miss by a factor of 2 or more, far
// beyond the bound. Tagged
// [sm90] (cuBLASLt's block scaling is for compute capability 9.0 only) and [cublas] (the
// sanitizer runs leave cuBLAS's kernels out).
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "common/device_matrix.hpp"
#include "common/device_matrix_fp8.hpp"
#include "common/errors.hpp"
#include "common/harness/cublaslt_fp8.hpp"
#include "common/harness/fp8_operands.hpp"
#include "common/harness/verify.hpp"
#include "common/host_matrix.hpp"
#include "test_support.hpp"

using namespace ladder;

namespace {

constexpr int kBlock = BlockFp8Operands::kBlock;  // 128 elements of K, 128 rows of B^T

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

}  // namespace

TEST_CASE("cuBLASLt block-scaled FP8 matches the per-block reference", "[gpu][sm90][cublas]") {
  // 196 x 264 x 640: a partial last block of N (264 = 2 x 128 + 8) and 5 blocks of K, so
  // B^T's factor rows are padded to 8; 256 x 384 x 1024: whole blocks, rows of 8 unpadded.
  for (const test::GemmCase shape :
       {test::GemmCase{196, 264, 640}, test::GemmCase{256, 384, 1024}}) {
    CAPTURE(test::describe(shape));
    HostMatrix a = blocky_matrix(shape.m, shape.k, 1, kBlock, 1);
    HostMatrix b = blocky_matrix(shape.k, shape.n, kBlock, kBlock, 2);
    BlockFp8Operands ops(a.view(), b.view());
    const CublasLtBlockFactors factors(ops.a_dequantize(), ops.b_dequantize());
    REQUIRE(factors.a().height == blocks(shape.k));
    REQUIRE(factors.a().width == shape.m);
    REQUIRE(factors.a().stride == shape.m);
    REQUIRE(factors.b_t().stride % 4 == 0);
    DeviceMatrix c(shape.m, shape.n);
    CublasLtFp8 cublaslt;
    const std::string refusal = CublasLtFp8::block_scaled_refusal(shape.m, shape.n);
    INFO(refusal);
    REQUIRE(refusal.empty());
    REQUIRE(cublaslt.supports_block_scaled(ops.a(), ops.b_t(), factors, c.view()));
    cublaslt.block_scaled(ops.a(), ops.b_t(), factors, c.view());
    CUDA_CHECK(cudaDeviceSynchronize());
    // The per-block reference: the exact products of the values the codes stand for, as the
    // bench checks the stage's per-block variant.
    const CheckResult check =
        check_gemm_on_device(ops.a_widened(), ops.b_widened(), c.view(), ops.a_widened_host(),
                             ops.b_widened_host(), fp8_gemm_gamma(shape.k, kBlock));
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
