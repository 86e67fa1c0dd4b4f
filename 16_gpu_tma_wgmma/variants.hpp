// The launch path stages 16-18 share: a table of named kernel variants (the first the default,
// the others ablations or other tilings), and one launcher that picks a variant by name,
// checks the shapes, refuses a GPU that is not sm_90, and takes the named fallback (stage 15's
// kernel) where A or B allow no tensor map (tma_path).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/vector_access.hpp"

namespace ladder {

struct HopperVariant {
  const char* name;
  void (*launch)(MatrixBf16 a, MatrixBf16 b, Matrix c);  // the TMA path, operands checked
};

std::vector<std::string> variant_names(const HopperVariant* variants, std::size_t count);

// c = a * b with the variant named `name`; returns the path taken (tma_path). An unknown name
// or mismatched shapes throw std::invalid_argument, a GPU other than sm_90 NoDeviceError.
GlobalAccess launch_hopper_variant(const HopperVariant* variants, std::size_t count,
                                   const std::string& name, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c);

}  // namespace ladder
