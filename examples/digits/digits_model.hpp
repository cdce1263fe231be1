#pragma once
// The digits demo model written with the C++ DSL: a small CNN trained by scripts/train_digits.py on
// scikit-learn's 8x8 digits, with the committed weights. The host demo imports the same network from
// digits.onnx (digits_imported.hpp); this form serves the bare-metal build, the tools and the memory tests.
#include <ctnn/ctnn.hpp>

#include "digits_predict.hpp"
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
inline int predict(const float* image) { return predict_with<net>(image); }

}  // namespace digits
