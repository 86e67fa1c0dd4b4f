// The launch path stages 16-18 share: a table of named kernel variants (the first the default,
// the others ablations or other tilings), and one launcher that picks a variant by name,
// checks the shapes, refuses a GPU that is not sm_90, and takes the named fallback (stage 15's
// kernel) where A or B allow no tensor map (tma_path).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "common/matrix_bf16.hpp"
#include "common/vector_access.hpp"

namespace ladder {

// A variant of a kernel over operand views of type View: MatrixBf16 (A and B), or Matrix (A
// and B^T, stage 18's TF32 variant). `launch` runs the TMA path on checked operands.
template <class View>
struct NamedVariant {
  const char* name;
  void (*launch)(View a, View b, Matrix c);
};
using HopperVariant = NamedVariant<MatrixBf16>;

template <class View>
std::vector<std::string> variant_names(const NamedVariant<View>* variants, std::size_t count) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < count; ++i) names.emplace_back(variants[i].name);
  return names;
}

// The variant called `name`, or std::invalid_argument naming the ones there are.
template <class View>
const NamedVariant<View>& find_variant(const NamedVariant<View>* variants, std::size_t count,
                                       const std::string& name) {
  std::string names;
  for (std::size_t i = 0; i < count; ++i) {
    if (name == variants[i].name) return variants[i];
    names += std::string(" ") + variants[i].name;
  }
  throw std::invalid_argument("unknown variant '" + name + "'; there are:" + names);
}

// c = a * b with the variant named `name`; returns the path taken (tma_path). An unknown name
// or mismatched shapes throw std::invalid_argument, a GPU other than sm_90
// UnsupportedGpuError.
GlobalAccess launch_hopper_variant(const HopperVariant* variants, std::size_t count,
                                   const std::string& name, MatrixBf16 a, MatrixBf16 b,
                                   Matrix c);

}  // namespace ladder
