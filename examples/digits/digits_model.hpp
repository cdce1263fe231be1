#pragma once
// The digits demo model: a small CNN trained by scripts/train_digits.py on scikit-learn's 8x8 digits.
// Shared by the host demo, its test and the bare-metal build.
#include <ctnn/ctnn.hpp>

#include "digits_weights.hpp"

namespace digits {

namespace dsl = ctnn::dsl;

using model = dsl::named<"digits", dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 1>,
                              dsl::conv2d<conv1_w, conv1_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                              dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>,
                              dsl::conv2d<conv2_w, conv2_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                              dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, dsl::flatten, dsl::dense<fc_w, fc_b>,
                              dsl::softmax>>;

using net = ctnn::compile<model>;

// Index of the largest probability.
inline int predict(const float* image) {
  float probabilities[net::output<0>::elements];
  net::run(image, probabilities);
  int best = 0;
  for (int c = 1; c < static_cast<int>(net::output<0>::elements); ++c)
    if (probabilities[c] > probabilities[best]) best = c;
  return best;
}

}  // namespace digits
