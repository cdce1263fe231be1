#pragma once
// The digits demo model imported from a file: examples/digits/digits.onnx (written from the committed
// weights by export_digits_onnx.py), embedded by `ctnn_add_model(<target> digits.onnx NAME digits)` and read
// by ctnn's ONNX frontend inside the compiler. The same network as the DSL's digits_model.hpp, in ONNX's
// layouts: the executor takes the image as NCHW [1,1,8,8], which with one channel is the NHWC image of
// digits_heldout.hpp.
#include <ctnn/ctnn.hpp>
#include <ctnn/models/digits.hpp>

#include "digits_heldout.hpp"
#include "digits_predict.hpp"

namespace digits::imported {

using net = ctnn::compile<ctnn::models::digits>;
static_assert(net::input<0>::dims == ctnn::make_shape(1, 1, 8, 8) && net::input<0>::elements == image_elements &&
              net::output<0>::elements == class_count);

// Index of the largest probability.
inline int predict(const float* image) { return predict_with<net>(image); }

}  // namespace digits::imported
