#pragma once
// Reference kernels of the logic family (ops/comparison.hpp, logical.hpp, select.hpp, cast.hpp, div.hpp,
// floor_div.hpp, floor_mod.hpp, squared_difference.hpp): comparisons into bools (TFLM's ComparisonWithScaling
// for int8), the logical ops on bools, select over three broadcast operands, element type conversion,
// division (TFLM's DivElementwise for int8), floor division and remainder, squared difference. Their
// operands arrive untyped and are read as the element type kernel_params names (`type`: the first
// input's, `out_type`: the result's), so that one kernel serves every element type of an op.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <ctnn/detail/math.hpp>
#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/elementwise.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>

namespace ctnn::kernel::reference::logic {

// A bool element as a model stores it: one byte, true when not zero. The kernels read bools through it,
// never as C++ bool: an input byte other than 0 or 1 is not a valid bool value (loading it is undefined
// behaviour, and a fuzzed or foreign file has such bytes); they write 0 or 1.
struct bool_byte {
  std::uint8_t byte = 0;
  bool_byte() = default;
  constexpr bool_byte(bool value) : byte(value ? 1 : 0) {}  // implicit: a kernel's bool result is stored
  constexpr operator bool() const { return byte != 0; }
};

// Calls f(T{}) with the C++ element type T of `type` (bool_byte for b8). With compile-time parameters the
// switch folds to one case.
template <class F>
[[gnu::always_inline]] inline void with_element_type(dtype type, F&& f) {
  switch (type) {
    case dtype::f32: return f(float{});
    case dtype::i8: return f(std::int8_t{});
    case dtype::u8: return f(std::uint8_t{});
    case dtype::i16: return f(std::int16_t{});
    case dtype::i32: return f(std::int32_t{});
    case dtype::i64: return f(std::int64_t{});
    case dtype::b8: return f(bool_byte{});
  }
}

// a Compare b over the broadcast operands, into bools. An int8 call with TFLite's recipe (left_shift set)
// compares both operands rescaled as TFLM's ComparisonWithScaling does: (x - zero point) << 8, times the
// operand's scale as a multiplier below one; otherwise (plain integers, ONNX) the raw values.
template <class Compare, class Params>
[[gnu::always_inline]] inline void compare(Params p, const void* const* operands, void* result) {
  auto* out = static_cast<bool_byte*>(result);
  if (p->type == dtype::i8 && p->left_shift != 0) {
    const auto* a = static_cast<const std::int8_t*>(operands[0]);
    const auto* b = static_cast<const std::int8_t*>(operands[1]);
    reference::detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
      out[i] = Compare{}(int8::scaled_input(p, a[ia], p->input_offset, p->input_multiplier, p->input_shift),
                         int8::scaled_input(p, b[ib], p->input2_offset, p->input2_multiplier, p->input2_shift));
    });
    return;
  }
  with_element_type(p->type, [&](auto zero) {
    using T = decltype(zero);
    const auto* a = static_cast<const T*>(operands[0]);
    const auto* b = static_cast<const T*>(operands[1]);
    reference::detail::for_each_broadcast(
        p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) { out[i] = Compare{}(a[ia], b[ib]); });
  });
}

// Combine(a, b) of two bool operands, broadcast (logical and, or, xor).
template <class Combine, class Params>
[[gnu::always_inline]] inline void combine(Params p, const void* const* operands, void* result) {
  const auto* a = static_cast<const bool_byte*>(operands[0]);
  const auto* b = static_cast<const bool_byte*>(operands[1]);
  auto* out = static_cast<bool_byte*>(result);
  reference::detail::for_each_broadcast(
      p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) { out[i] = Combine{}(a[ia], b[ib]); });
}

// condition ? x : y, the three operands (shapes p->in, p->in2, p->in3) broadcast to p->out; x and y of the
// result's element type, moved as bytes of its size.
template <class Params>
[[gnu::always_inline]] inline void select(Params p, const void* const* operands, void* result) {
  const auto* condition = static_cast<const bool_byte*>(operands[0]);
  const auto walk = [&](auto zero) {
    using T = decltype(zero);
    const auto* x = static_cast<const T*>(operands[1]);
    const auto* y = static_cast<const T*>(operands[2]);
    auto* out = static_cast<T*>(result);
    const shape& o = p->out;
    const std::array<std::array<std::int64_t, max_rank>, 3> strides{reference::detail::broadcast_strides(p->in, o),
                                                                    reference::detail::broadcast_strides(p->in2, o),
                                                                    reference::detail::broadcast_strides(p->in3, o)};
    const std::int64_t elements = o.elements();
    if (elements == 0) return;
    if (o.rank == 0) {
      out[0] = condition[0] ? x[0] : y[0];
      return;
    }
    // A row of the last axis at a time (each operand stepping by its stride there: 0 where it broadcasts), an
    // odometer over the other axes moving the three row offsets; offsets in the target's pointer width.
    const auto last = static_cast<std::size_t>(o.rank - 1);
    const std::ptrdiff_t run = o[o.rank - 1];
    const auto step_c = static_cast<std::ptrdiff_t>(strides[0][last]), step_x = static_cast<std::ptrdiff_t>(strides[1][last]),
               step_y = static_cast<std::ptrdiff_t>(strides[2][last]);
    std::array<std::int32_t, max_rank> index{};
    std::array<std::ptrdiff_t, 3> at{};
    T* to = out;
    for (std::int64_t done = 0; done < elements; done += run, to += run) {
      const bool_byte* c = condition + at[0];
      const T* xs = x + at[1];
      const T* ys = y + at[2];
      for (std::ptrdiff_t j = 0; j < run; ++j, c += step_c, xs += step_x, ys += step_y) to[j] = *c ? *xs : *ys;
      for (std::int32_t d = o.rank - 2; d >= 0; --d) {
        const auto du = static_cast<std::size_t>(d);
        for (std::size_t k = 0; k < 3; ++k) at[k] += static_cast<std::ptrdiff_t>(strides[k][du]);
        if (++index[du] < o[d]) break;
        for (std::size_t k = 0; k < 3; ++k) at[k] -= static_cast<std::ptrdiff_t>(strides[k][du]) * o[d];
        index[du] = 0;
      }
    }
  };
  switch (size_of(p->out_type)) {
    case 8: return walk(std::int64_t{});
    case 4: return walk(std::int32_t{});
    case 2: return walk(std::int16_t{});
    default: return walk(std::int8_t{});
  }
}

// One element converted as static_cast does where the value fits (TFLM's CAST, ONNX's Cast): to bool,
// whether it is not zero; from float to an integer, truncated toward zero. A float outside the integer
// type's range (undefined in C++, TFLM and ONNX alike) saturates, NaN becomes 0.
template <class To, class From>
[[gnu::always_inline]] constexpr To converted(From v) {
  if constexpr (std::is_same_v<To, bool_byte>) {
    return bool_byte{v != From{}};
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (v != v) return To{0};
    constexpr auto low = static_cast<From>(std::numeric_limits<To>::min());
    constexpr auto high = static_cast<From>(std::numeric_limits<To>::max());  // rounded up for 32 and 64 bits
    if (v <= low) return std::numeric_limits<To>::min();
    if (v >= high) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

// Every element of the input (element type p->type) converted to p->out_type.
template <class Params>
[[gnu::always_inline]] inline void cast(Params p, const void* input, void* result) {
  const std::int64_t elements = p->out.elements();
  with_element_type(p->type, [&](auto from) {
    using From = decltype(from);
    const auto* in = static_cast<const From*>(input);
    with_element_type(p->out_type, [&](auto to) {
      using To = decltype(to);
      auto* out = static_cast<To*>(result);
      for (std::int64_t i = 0; i < elements; ++i) out[i] = converted<To>(in[i]);
    });
  });
}

// a / b in float: +-inf or NaN for b = 0 as IEEE division gives. In constant evaluation (fold_constants) a
// division by zero is not a constant expression, so those results are made by hand and the others are the
// quotient in double rounded once to float (exactly the float quotient).
constexpr float divided(float a, float b) {
  if (std::is_constant_evaluated()) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    if (a != a || b != b || (a == 0.0f && b == 0.0f)) return std::numeric_limits<float>::quiet_NaN();
    const auto sign = [](float v) { return std::bit_cast<std::uint32_t>(v) >> 31; };  // std::signbit: not constexpr
    if (b == 0.0f) return sign(a) != sign(b) ? -inf : inf;
    return ctnn::detail::math::to_float(static_cast<double>(a) / static_cast<double>(b));
  }
  return a / b;
}

// TFLM's DivElementwise (int8): the quotient of the offset operands as a fixed-point product with the
// reciprocal of the divisor (GetReciprocal in Q31, the dividend shifted up by its headroom), rescaled by
// the output multiplier, offset, clamped. A zero divisor (TFLM: a failed DCHECK, then undefined shifts)
// gives the clamp bound of the dividend's sign.
// The reciprocals of the 256 int8 divisors of a divisor zero point (index x2 + 128: GetReciprocal of |x2 + Offset|,
// 0 for a zero divisor), computed by the compiler for calls with constant parameters (1.25 KB of flash shared by the
// DIVs of one divisor zero point) rather than per element as TFLM does.
template <std::int32_t Offset>
struct divisor_reciprocals {
  std::array<std::int32_t, 256> scale{};
  std::array<std::int8_t, 256> bits_over_unit{};
};
template <std::int32_t Offset>
inline constexpr divisor_reciprocals<Offset> divisor_reciprocals_v = [] {
  divisor_reciprocals<Offset> table{};
  for (std::int32_t x2 = -128; x2 <= 127; ++x2) {
    const std::int32_t divisor = x2 + Offset;
    if (divisor == 0) continue;
    const int8::fixed_point::reciprocal inverse = int8::fixed_point::get_reciprocal<31>(divisor < 0 ? -divisor : divisor);
    table.scale[static_cast<std::size_t>(x2 + 128)] = inverse.scale;
    table.bits_over_unit[static_cast<std::size_t>(x2 + 128)] = static_cast<std::int8_t>(inverse.bits_over_unit);
  }
  return table;
}();

template <class Params>
[[gnu::always_inline]] constexpr int8::fixed_point::reciprocal divisor_reciprocal(Params, std::int32_t x2, std::int32_t divisor) {
  if constexpr (constant_params<Params>::value) {
    const auto& table = divisor_reciprocals_v<constant_params<Params>::params.input2_offset>;
    const auto k = static_cast<std::size_t>(x2 + 128);
    return {table.scale[k], table.bits_over_unit[k]};
  } else {
    return int8::fixed_point::get_reciprocal<31>(divisor);
  }
}

template <class Params>
[[gnu::always_inline]] constexpr std::int8_t divide_int8(Params p, std::int32_t x1, std::int32_t x2) {
  namespace q = ctnn::detail::quant;
  std::int32_t dividend = x1 + p->input_offset;
  std::int32_t divisor = x2 + p->input2_offset;
  if (divisor == 0) return static_cast<std::int8_t>(dividend < 0 ? p->activation_min : p->activation_max);
  if (divisor < 0) {  // the reciprocal must be positive to be a multiplier
    dividend = -dividend;
    divisor = -divisor;
  }
  const int8::fixed_point::reciprocal inverse = divisor_reciprocal(p, x2, divisor);
  // CountLeadingSignBits: redundant sign bits of the dividend (31 for 0).
  const auto headroom =
      static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint32_t>(dividend < 0 ? ~dividend : dividend))) - 1;
  const std::int32_t unscaled = q::multiply_by_quantized_multiplier_greater_than_one(dividend, inverse.scale, headroom);
  // A right shift beyond 31 (a zero or small dividend over a large divisor at a small output multiplier: TFLM
  // asserts, or shifts by more than the width) leaves less than half a unit: 0.
  const std::int32_t total_shift = p->output_shift - inverse.bits_over_unit - headroom;
  const std::int32_t quotient =
      total_shift < -31 ? 0 : q::multiply_by_quantized_multiplier(unscaled, p->output_multiplier, total_shift);
  const std::int32_t unclamped = p->output_offset + quotient;
  return static_cast<std::int8_t>(std::clamp(unclamped, p->activation_min, p->activation_max));
}

// Integer a / b as TFLite's int32 DIV and ONNX's integer Div compute it: truncated toward zero (C++'s
// division). A zero divisor (undefined in both) gives 0; the one overflowing quotient, min / -1, wraps.
template <class T>
constexpr T divided_integers(T a, T b) {
  if (b == 0) return T{0};
  if constexpr (std::is_signed_v<T>)
    if (b == T{-1})
      return static_cast<T>(static_cast<std::make_unsigned_t<T>>(0) - static_cast<std::make_unsigned_t<T>>(a));
  return static_cast<T>(a / b);
}

// floor(a / b) as TFLM's FloorDiv: the quotient in double, floored there, then rounded to float. In constant
// evaluation (fold_constants) the quotient's special cases are made by hand (as `divided`) and the floor is
// a truncation corrected downward (exact below 2^52).
constexpr float floor_divided(float a, float b) {
  if (std::is_constant_evaluated()) {
    const float quotient = divided(a, b);
    constexpr float largest = std::numeric_limits<float>::max();
    if (quotient != quotient || quotient > largest || quotient < -largest) return quotient;  // NaN, +-inf
    const double exact = static_cast<double>(a) / static_cast<double>(b);
    if (exact >= 4503599627370496.0 || exact <= -4503599627370496.0) return static_cast<float>(exact);
    const auto truncated = static_cast<double>(static_cast<std::int64_t>(exact));
    return static_cast<float>(truncated > exact ? truncated - 1.0 : truncated);
  }
  return static_cast<float>(std::floor(static_cast<double>(a) / static_cast<double>(b)));
}

// The float remainder with the divisor's sign, as TFLM's FloorMod: fmod(a, b), plus b when it is not zero and
// its sign differs from b's. fmod is exact; in constant evaluation it is computed by subtracting the largest
// doubling of |b| that fits, each subtraction exact (Sterbenz), and a zero divisor or an infinite dividend
// gives NaN by hand.
constexpr float floor_modulo(float a, float b) {
  float remainder = 0.0f;
  if (std::is_constant_evaluated()) {
    constexpr float largest = std::numeric_limits<float>::max();
    const bool undefined = a != a || b != b || b == 0.0f || a > largest || a < -largest;
    if (undefined) return std::numeric_limits<float>::quiet_NaN();
    const double divisor = b < 0.0f ? -static_cast<double>(b) : static_cast<double>(b);
    double rest = a < 0.0f ? -static_cast<double>(a) : static_cast<double>(a);
    while (rest >= divisor) {
      double step = divisor;
      while (step * 2.0 <= rest) step *= 2.0;
      rest -= step;
    }
    remainder = static_cast<float>(a < 0.0f ? -rest : rest);
  } else {
    remainder = std::fmod(a, b);
  }
  return remainder != 0.0f && ((b < 0.0f) != (remainder < 0.0f)) ? remainder + b : remainder;
}

// (a - b)^2 in float (TFLM's SquaredDifference<float>); in constant evaluation squared in double and rounded
// once (the float result; an overflow to inf is not a constant expression in float).
constexpr float squared_difference(float a, float b) {
  const float difference = a - b;
  if (std::is_constant_evaluated())
    return difference != difference ? difference
                                    : ctnn::detail::math::to_float(static_cast<double>(difference) * difference);
  return difference * difference;
}

}  // namespace ctnn::kernel::reference::logic
