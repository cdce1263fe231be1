#pragma once
// What sigmoid and tanh share (ops/sigmoid.hpp, ops/tanh.hpp): TFLite's integer recipes and kernels, int8
// (fixed point) and int16 (TFLM's table with interpolation: kernel/reference/int16_activation.hpp).
#include <cstdint>
#include <type_traits>

#include <ctnn/kernel/reference/int16_activation.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

template <op_kind K, activation A>
struct logistic_or_tanh_op : activation_op<K, A> {
  static constexpr bool sigmoid = A == activation::sigmoid;
  static constexpr bool has_kernel(dtype type) { return unary_elementwise::has_kernel(type) || type == dtype::i16; }
  // TFLM's int16 kernels: zero points 0, the result's scale 2^-15.
  static constexpr bool int16_symmetric = true;
  static constexpr std::int32_t int16_result_exponent = -15;

  // int8: input_multiplier/input_shift the frexp of input_scale * 2^27 (4 integer bits), as TFLM's Prepare;
  // int16: the table's input scaling (a power-of-two scale with a left shift of 0, or 0 and 1 for tanh, is
  // multiplier 0).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    namespace quant = ctnn::detail::quant;
    const quant::quantized_multiplier qm = p.type == dtype::i16
                                               ? quant::int16_logistic_tanh_input_multiplier(q.in.scale, sigmoid ? 0 : 1)
                                               : quant::logistic_tanh_input_multiplier(q.in.scale);
    p.input_multiplier = qm.multiplier;
    p.input_shift = qm.shift;
  }
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) { return {recipe.input_shift, true}; }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    namespace ref = kernel::reference;
    with_activation_type(p, [&]<class T>(T) {
      const auto* x = static_cast<const T*>(operands[0]);
      auto* y = static_cast<T*>(result);
      if constexpr (std::is_same_v<T, std::int8_t>) ref::int8::logistic_or_tanh<sigmoid>(p, x, y);
      else if constexpr (sigmoid) ref::int16::logistic(p, x, y);
      else ref::int16::tanh(p, x, y);
    });
  }
};

}  // namespace ctnn::ops
