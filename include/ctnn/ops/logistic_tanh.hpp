#pragma once
// What sigmoid and tanh share (ops/sigmoid.hpp, ops/tanh.hpp): TFLite's integer recipe and int8 kernel.
#include <cstdint>

#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

template <op_kind K, activation A>
struct logistic_or_tanh_op : activation_op<K, A> {
  // input_multiplier/input_shift: frexp of input_scale * 2^27 (4 integer bits), as TFLM's Prepare.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    const ctnn::detail::quant::quantized_multiplier qm = ctnn::detail::quant::logistic_tanh_input_multiplier(q.in.scale);
    p.input_multiplier = qm.multiplier;
    p.input_shift = qm.shift;
  }
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) { return {recipe.input_shift, true}; }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::logistic_or_tanh<A == activation::sigmoid>(p, static_cast<const std::int8_t*>(operands[0]),
                                                                       static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
