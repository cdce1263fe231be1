#pragma once
// What leaky_relu and prelu share (ops/leaky_relu.hpp, ops/prelu.hpp): a second requantization for the
// negative side (kernel_params::negative_side), checked by the TFLite importer and printed.
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops::negative_side {

// Both multipliers' shifts must be ones the kernel can apply: the larger is checked.
constexpr recipe_shift checked_shift(const kernel_params& recipe) {
  return {recipe.output_shift > recipe.negative_side().shift ? recipe.output_shift : recipe.negative_side().shift};
}

template <class Writer>
void put_requantization(Writer& w, const kernel_params& p) {
  w.field(", negative side multiplier ", p.negative_side().multiplier);
  w.field(" shift ", p.negative_side().shift);
}

}  // namespace ctnn::ops::negative_side
