// Filling matrices: random inputs (fill_random) and NaN-poisoned outputs (poison).
#pragma once

#include <cstdint>

#include "common/host_matrix.hpp"
#include "common/matrix.hpp"

namespace ladder {

// Fills the width x height elements with values uniform in [-1, 1), a pure function of
// (seed, row, col): the same seed gives the same matrix whatever its stride. Padding
// columns (stride > width) become NaN, so a kernel that reads them poisons its result.
// Meant for an owner's whole view: in a sub() view those columns are a neighbour's data.
void fill_random(Matrix m, std::uint64_t seed);

// A height x width host matrix (stride = width) filled by fill_random: the inputs every GEMM
// bench makes.
HostMatrix random_host_matrix(int height, int width, std::uint64_t seed);

// Rounds every element of the width x height view to the nearest TF32 value (10 mantissa
// bits; ties to even): the values a TF32 tensor core reads exactly. Padding columns and
// values that are not finite are left as they are.
void round_to_tf32(Matrix m);

// Fills every element, padding included, with NaN: an element that a kernel fails to
// write stays NaN and fails verification. Every byte kPoisonByte (common/matrix_owners.hpp), the
// same bits as DeviceMatrix::poison. Like fill_random, for an owner's whole view.
void poison(Matrix m);

}  // namespace ladder
