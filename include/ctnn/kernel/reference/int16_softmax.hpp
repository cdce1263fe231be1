#pragma once
// int16 SOFTMAX (TFLite's 16x8 quantization; TFLM's reference_ops::SoftmaxInt16): per row, each input minus
// the row's largest, rescaled so that [-65535, 0] is [-10, 0] (input_multiplier, input_shift: QuantizeMultiplier
// of input_scale * beta / (10 / 65535)), recentred and looked up in a table of exp; the sum of the
// exponentials normalised to its leading one, looked up in a table of 1 / (1 + x); each exponential times
// that reciprocal, rounded, clamped to [0, 32767] (the result's scale 2^-15, zero point 0).
//
// The two tables are TFLite's LUTPopulate<int16_t>: 512 samples of the function over its input range and the
// end point, each sample corrected by half the error of linear interpolation at its interval's midpoint, in
// float as TFLite computes them (exp in double rounded to float: <cmath>'s expf where that is correctly
// rounded; unit_int16_softmax_tables compares them with the host's). They depend on no scale, so they are
// computed once, where a kernel reads them.
#include <array>
#include <bit>
#include <cstdint>

#include <ctnn/detail/math.hpp>
#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference::int16 {

using lookup_table = std::array<std::int16_t, 513>;

namespace detail {

constexpr float round_half_away(float x) { return static_cast<float>(ctnn::detail::quant::round_to_int(x)); }

// LUTPopulateInt16<float>: the function `transform` from input quantization (scale, zero point) to output
// quantization, sampled at 513 points of the int16 input range. (Dependent on Unused so that a variable
// template's initializer is evaluated where the variable is used, not where it is defined.)
template <class Unused = void, class Transform>
constexpr lookup_table populate(float input_scale, std::int32_t input_zero_point, float output_scale,
                                std::int32_t output_zero_point, Transform transform) {
  const float input_min = input_scale * static_cast<float>(-32768 - input_zero_point);
  const float input_max = input_scale * static_cast<float>(32767 - input_zero_point);
  const float output_min = output_scale * static_cast<float>(-32768 - output_zero_point);
  const float output_max = output_scale * static_cast<float>(32767 - output_zero_point);
  constexpr int steps = 512;
  const float step = (input_max - input_min) / static_cast<float>(steps);
  const float half_step = step / 2;
  const float output_scaling_inv = 65536.0f / (output_max - output_min);
  const auto clamped = [](float v) {
    return static_cast<std::int16_t>(v < -32768.0f ? -32768.0f : (v > 32767.0f ? 32767.0f : v));
  };
  lookup_table table{};
  for (int i = 0; i < steps; ++i) {
    const float value = transform(input_min + static_cast<float>(i) * step);
    const float midpoint_value = transform(input_min + static_cast<float>(i) * step + half_step);
    const float next_value = transform(input_min + static_cast<float>(i + 1) * step);
    const float sample = round_half_away(value * output_scaling_inv);
    const float midpoint_interpolated = round_half_away((next_value * output_scaling_inv + sample) / 2);
    const float midpoint = round_half_away(midpoint_value * output_scaling_inv);
    const float bias = round_half_away((midpoint_interpolated - midpoint) / 2);
    table[static_cast<std::size_t>(i)] = clamped(sample - bias);
  }
  table[steps] = clamped(round_half_away(transform(input_max) * output_scaling_inv));
  return table;
}

constexpr float exponential(float x) { return ctnn::detail::math::to_float(ctnn::detail::math::exp(static_cast<double>(x))); }
constexpr float one_over_one_plus(float x) { return 1.0f / (1.0f + x); }

// TFLite's ranges: exp over [-10, 0], 1 / (1 + x) over [0, 1], both to [-1, 1] in int16.
constexpr float int16_range = 65535.0f;
template <class T = void>
inline constexpr lookup_table exp_table = populate<T>(10.0f / int16_range, 32767, 2.0f / int16_range, 0, exponential);
template <class T = void>
inline constexpr lookup_table one_over_one_plus_x_table =
    populate<T>(1.0f / int16_range, -32768, 2.0f / int16_range, 0, one_over_one_plus);

}  // namespace detail

// The tables (variable templates, named through a template argument: computed only where an int16 softmax
// is compiled, not in every translation unit that includes this header).
template <class T = void>
constexpr const lookup_table& exp_table() { return detail::exp_table<T>; }
template <class T = void>
constexpr const lookup_table& one_over_one_plus_x_table() { return detail::one_over_one_plus_x_table<T>; }

// LUTLookup of int16: entry 256 + x / 128, linearly interpolated by x's low 7 bits.
constexpr std::int16_t lookup(std::int16_t x, const lookup_table& table) {
  const auto index = static_cast<std::uint16_t>(256 + (x >> 7));
  const std::int32_t offset = x & 0x7f;
  const std::int16_t base = table[index];
  const auto slope = static_cast<std::int16_t>(table[index + 1] - table[index]);
  return static_cast<std::int16_t>(base + ((slope * offset + 64) >> 7));
}

template <class Params>
constexpr void softmax(Params p, const std::int16_t* input, std::int16_t* output) {
  namespace q = ctnn::detail::quant;
  const std::int32_t depth = p->in.rank > 0 ? p->in[p->in.rank - 1] : 1;
  if (depth == 0) return;  // no row to normalise
  const std::int64_t rows = p->in.elements() / depth;
  const auto saturate = [](std::int32_t v) { return static_cast<std::int16_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v)); };
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int16_t* x = input + r * depth;
    std::int16_t* y = output + r * depth;  // holds the exponentials until the reciprocal is known, as TFLM's
    std::int16_t largest = -32768;
    for (std::int32_t c = 0; c < depth; ++c) largest = x[c] > largest ? x[c] : largest;
    std::int32_t sum = 0;  // Q16.15
    for (std::int32_t c = 0; c < depth; ++c) {
      const std::int32_t scaled = q::multiply_by_quantized_multiplier(x[c] - largest, p->input_multiplier, p->input_shift);
      y[c] = lookup(saturate(scaled + 32767), exp_table<Params>());
      sum = q::wrapping_add(sum, y[c]);
    }
    const auto headroom_plus_one = static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint32_t>(sum)));
    const auto shifted_sum =
        static_cast<std::int32_t>(((static_cast<std::int64_t>(sum) << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const std::int16_t reciprocal = lookup(saturate(shifted_sum - ((1 << 15) + (1 << 16))), one_over_one_plus_x_table<Params>());
    const std::int32_t right_shift = 31 - headroom_plus_one;
    const std::int64_t half = right_shift > 0 ? std::int64_t{1} << (right_shift - 1) : 0;
    for (std::int32_t c = 0; c < depth; ++c) {
      const auto v = static_cast<std::int32_t>((static_cast<std::int64_t>(y[c]) * reciprocal + half) >> right_shift);
      y[c] = static_cast<std::int16_t>(v < 0 ? 0 : (v > 32767 ? 32767 : v));
    }
  }
}

}  // namespace ctnn::kernel::reference::int16
