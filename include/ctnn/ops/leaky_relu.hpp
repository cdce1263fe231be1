#pragma once
// leaky_relu: x > 0 ? x : alpha x, alpha of any sign and size (TFLite LEAKY_RELU, ONNX LeakyRelu). The
// descriptor of op_kind::leaky_relu (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/coefficients.hpp>
#include <ctnn/ops/negative_side.hpp>

namespace ctnn::ops {

struct leaky_relu : parametrised_activation<op_kind::leaky_relu> {
  static constexpr bool has_kernel(dtype type) { return parametrised_activation::has_kernel(type) || type == dtype::i16; }
  // TFLM's CalculateOpDataLeakyRelu (int8, int16): input scale x alpha / output scale (the negative side) and
  // input scale / output scale (the positive side), each computed in float, then widened.
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    const float alpha = n.attrs.coefficients.alpha();
    negative_side_fields negative{};
    q.set_multiplier(negative.multiplier, negative.shift, static_cast<double>(q.in.scale * alpha / q.out.scale));
    p.set(negative);
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale / q.out.scale));
  }
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) {
    return negative_side::checked_shift(recipe);
  }
  template <class Writer>
  static void put_requantization(Writer& w, const kernel_params& p) {
    negative_side::put_requantization(w, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    const float alpha = p->coefficients.alpha();
    kernel::reference::unary_with(p, operands[0], result,
                                  [alpha](float x) { return kernel::reference::leaky_relu(x, alpha); });
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::leaky_relu(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
