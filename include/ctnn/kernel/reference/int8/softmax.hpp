#pragma once
// int8 softmax over the last axis, TFLite's reference recipe (the one TFLM runs; bit-exact):
//   per row: max; for each x with d = x - max >= diff_min: d rescaled to Q5.26 by the beta/input-scale
//   multiplier (MultiplyByQuantizedMultiplierGreaterThanOne), exp in fixed point (Q0), summed in Q12;
//   the reciprocal of the sum (GetReciprocal: Q0 scale and a power of two); each output is
//   RoundingDivideByPOT(scale * exp(d), bits_over_unit + 23) - 128, clamped; inputs below diff_min give -128.
// The output quantization is fixed by TFLite: scale 1/256, zero point -128. beta is 1 (lower_te).
#include <array>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>

namespace ctnn::kernel::reference::int8 {

namespace detail {

// TFLite sums exp(d) in Q12 for softmax and log-softmax alike.
inline constexpr std::int32_t accumulation_integer_bits = 12;

// The row walk softmax and log_softmax share: row(x, y, depth, largest) for each row of the last axis.
template <class Params, class Row>
constexpr void for_each_row(const Params& p, const std::int8_t* input, std::int8_t* output, Row&& row) {
  const std::int32_t depth = p->in.last();
  if (depth == 0) return;  // an empty last axis: no element (a model file can say so)
  const std::int64_t rows = p->in.elements() / depth;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int8_t* x = input + r * depth;
    std::int32_t largest = -128;
    for (std::int32_t c = 0; c < depth; ++c) largest = x[c] > largest ? x[c] : largest;
    row(x, output + r * depth, depth, largest);
  }
}

// The sum in Q12 of exp(d) (exp_of(c), Q0) over the row's elements with d = x - largest >= diff_min.
template <class ExpOf>
constexpr std::int32_t sum_of_exps(const std::int8_t* x, std::int32_t depth, std::int32_t largest, std::int32_t diff_min,
                                   ExpOf&& exp_of) {
  std::int32_t sum = 0;
  for (std::int32_t c = 0; c < depth; ++c)
    if (x[c] - largest >= diff_min)
      sum = ctnn::detail::quant::wrapping_add(sum, fixed_point::rescale<0, accumulation_integer_bits>(exp_of(c)));
  return sum;
}

}  // namespace detail

// The output quantization must be TFLite's (kernel::invoke_i8 asserts it, kernel::invoke_dynamic checks it).
constexpr bool softmax_output_is_supported(const kernel_params& p) { return p.output_offset == -128; }

template <class Params>
constexpr void softmax(Params p, const std::int8_t* input, std::int8_t* output) {
  namespace q = ctnn::detail::quant;
  namespace fp = fixed_point;
  constexpr std::int32_t scaled_diff_integer_bits = 5;
  const std::int32_t diff_min = -q::input_radius(scaled_diff_integer_bits, p->input_shift);
  detail::for_each_row(p, input, output, [&](const std::int8_t* x, std::int8_t* y, std::int32_t depth, std::int32_t largest) {
    const auto exp_of = [&](std::int32_t c) {
      const std::int32_t diff_q5 =
          q::multiply_by_quantized_multiplier_greater_than_one(x[c] - largest, p->input_multiplier, p->input_shift);
      return fp::exp_on_negative_values<scaled_diff_integer_bits>(diff_q5);
    };
    const fp::reciprocal inverse =
        fp::get_reciprocal<detail::accumulation_integer_bits>(detail::sum_of_exps(x, depth, largest, diff_min, exp_of));
    const std::int32_t exponent = inverse.bits_over_unit + 31 - 8;
    for (std::int32_t c = 0; c < depth; ++c) {
      if (x[c] - largest >= diff_min) {
        std::int32_t v = q::rounding_divide_by_pot(fp::mul(inverse.scale, exp_of(c)), exponent) - 128;
        v = v < -128 ? -128 : (v > 127 ? 127 : v);
        y[c] = static_cast<std::int8_t>(v);
      } else {
        y[c] = -128;
      }
    }
  });
}

// int8 log-softmax over the last axis, TFLite's LogSoftmaxQuantized (TFLM's LOG_SOFTMAX; the output is scale
// 16/256, zero point 127): the sum of exp(d) in Q12 as softmax's, its log in Q5
// (log_x_for_x_greater_than_or_equal_to_1); each d above max(diff_min - 1, log sum rescaled to the input's
// units by the reverse multiplier, output_multiplier/output_shift) gives (d in Q5 - log sum) / 2^22 + 127,
// clamped; the others -128.
namespace detail {
inline constexpr std::int32_t log_softmax_input_integer_bits = 5;
// log_softmax's d = x - max in Q5 and exp(d) in Q0 for each d in [-255, 0] (index d + 255), for a call with constant
// parameters: computed by the compiler (in flash), as TFLM's per-element fixed-point arithmetic gives them. Only the
// d >= diff_min the kernel reads (0 below).
template <kernel_params P>
constexpr std::array<std::int32_t, 256> make_log_softmax_diff() {
  std::array<std::int32_t, 256> table{};
  const std::int32_t diff_min = -ctnn::detail::quant::input_radius(log_softmax_input_integer_bits, P.input_shift);
  for (std::int32_t d = diff_min > -255 ? diff_min : -255; d <= 0; ++d)
    table[static_cast<std::size_t>(d + 255)] = ctnn::detail::quant::multiply_by_quantized_multiplier(d, P.input_multiplier, P.input_shift);
  return table;
}
template <kernel_params P>
constexpr std::array<std::int32_t, 256> make_log_softmax_exp() {
  const std::array<std::int32_t, 256> diff = make_log_softmax_diff<P>();
  std::array<std::int32_t, 256> table{};
  const std::int32_t diff_min = -ctnn::detail::quant::input_radius(log_softmax_input_integer_bits, P.input_shift);
  for (std::int32_t d = diff_min > -255 ? diff_min : -255; d <= 0; ++d)
    table[static_cast<std::size_t>(d + 255)] =
        fixed_point::exp_on_negative_values<log_softmax_input_integer_bits>(diff[static_cast<std::size_t>(d + 255)]);
  return table;
}
template <kernel_params P>
inline constexpr std::array<std::int32_t, 256> log_softmax_diff_v = make_log_softmax_diff<P>();
template <kernel_params P>
inline constexpr std::array<std::int32_t, 256> log_softmax_exp_v = make_log_softmax_exp<P>();
// Whether the compiler can compute them (a constant expression: no overflow in the fixed-point arithmetic).
template <class Params>
constexpr bool log_softmax_tables_are_constant = false;
template <kernel_params P>
  requires requires { typename std::integral_constant<bool, (make_log_softmax_exp<P>(), true)>; }
constexpr bool log_softmax_tables_are_constant<static_params<P>> = true;
}  // namespace detail

template <class Params>
constexpr void log_softmax(Params p, const std::int8_t* input, std::int8_t* output) {
  namespace q = ctnn::detail::quant;
  namespace fp = fixed_point;
  constexpr std::int32_t input_integer_bits = detail::log_softmax_input_integer_bits, output_integer_bits = 4;
  const std::int32_t diff_min = -q::input_radius(input_integer_bits, p->input_shift);
  detail::for_each_row(p, input, output, [&](const std::int8_t* x, std::int8_t* y, std::int32_t depth, std::int32_t largest) {
    const auto diff_q5 = [&](std::int32_t c) -> std::int32_t {
      if constexpr (detail::log_softmax_tables_are_constant<Params>)
        return detail::log_softmax_diff_v<constant_params<Params>::params>[static_cast<std::size_t>(x[c] - largest + 255)];
      else
        return q::multiply_by_quantized_multiplier(x[c] - largest, p->input_multiplier, p->input_shift);
    };
    const auto exp_of = [&](std::int32_t c) -> std::int32_t {
      if constexpr (detail::log_softmax_tables_are_constant<Params>)
        return detail::log_softmax_exp_v<constant_params<Params>::params>[static_cast<std::size_t>(x[c] - largest + 255)];
      else
        return fp::exp_on_negative_values<input_integer_bits>(diff_q5(c));
    };
    const std::int32_t sum_of_exps = detail::sum_of_exps(x, depth, largest, diff_min, exp_of);
    const std::int32_t log_sum =
        fp::log_x_for_x_greater_than_or_equal_to_1<input_integer_bits, detail::accumulation_integer_bits>(sum_of_exps);
    const std::int32_t reach =
        q::multiply_by_quantized_multiplier(q::wrapping_add(log_sum, fp::raw_min), p->output_multiplier, p->output_shift);
    const std::int32_t adjusted_diff_min = diff_min - 1 > reach ? diff_min - 1 : reach;
    for (std::int32_t c = 0; c < depth; ++c) {
      if (x[c] - largest > adjusted_diff_min) {
        std::int32_t v = q::rounding_divide_by_pot(q::wrapping_sub(diff_q5(c), log_sum),
                                                   31 - input_integer_bits - output_integer_bits) + 127;
        v = v < -128 ? -128 : (v > 127 ? 127 : v);
        y[c] = static_cast<std::int8_t>(v);
      } else {
        y[c] = -128;
      }
    }
  });
}

}  // namespace ctnn::kernel::reference::int8
