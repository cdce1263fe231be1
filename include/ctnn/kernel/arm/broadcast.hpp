#pragma once
// int8 binary ops with numpy broadcasting on Armv7E-M: ADD (shapes that differ: equal ones are add.hpp's), SUB, MUL,
// SQUARED_DIFFERENCE, MAXIMUM, MINIMUM and PRELU, bit-exact with the reference kernels (ops/<kind>.hpp: TFLite's
// integer recipes; kernel/reference/int8/elementwise.hpp, activation.hpp).
//
// The walk: the result's innermost axes where each operand either advances with the result or stays on one element
// form one row (broadcast_rows, at compile time: a per-channel constant against an NHWC map gives rows of C, a
// per-row one rows of W x C over which it is a scalar); the outer axes step each operand's row start by its strides.
// Per element, in a row:
//   ADD, SUB, SQUARED_DIFFERENCE: each input's rescale ((x + offset) << left_shift, times its multiplier) depends on
//     its 256 values only: a table made at compile time by the reference's own arithmetic (add.hpp's, 1 KB per
//     input), so an element is two table loads, the sum, difference or square, and the output stage;
//   MUL: (x + offset1) * (y + offset2), the output stage;
//   PRELU: the non-negative side depends on x alone (a 256-byte table of results); the negative side is the product
//     with alpha rescaled by the negative-side multiplier, as the reference's rectify;
//   MAXIMUM, MINIMUM (raw values, no requantization, as TFLM): four elements a step, SSUB8 setting the per-byte
//     greater-or-equal flags and SEL picking each byte (a constant operand replicated into the four bytes).
// The output stage: MultiplyByQuantizedMultiplier with the call's compile-time multiplier and shift, plus the zero
// point, clamped to the fused activation's range (detail/requantize.hpp). Element i of both operands is read before
// element i of the result is written (MAXIMUM/MINIMUM: a word of four before the four), so a result placed over its
// full-size operand (the planner's in-place binary op) stays correct.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/add.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

namespace ctnn::kernel::arm::detail {

// MAXIMUM's and MINIMUM's four results of two words of int8 values: SSUB8 sets the per-byte flags of a >= b, SEL
// takes each byte from a or b by them.
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
[[gnu::always_inline]] inline std::uint32_t max_bytes(std::uint32_t a, std::uint32_t b) {
  (void)__ssub8(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b));
  return static_cast<std::uint32_t>(__sel(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)));
}
[[gnu::always_inline]] inline std::uint32_t min_bytes(std::uint32_t a, std::uint32_t b) {
  (void)__ssub8(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b));
  return static_cast<std::uint32_t>(__sel(static_cast<std::int32_t>(b), static_cast<std::int32_t>(a)));
}
#else
inline std::uint32_t pick_bytes(std::uint32_t a, std::uint32_t b, bool larger) {
  std::uint32_t r = 0;
  for (int k = 0; k < 4; ++k) {
    const auto x = static_cast<std::int8_t>((a >> (8 * k)) & 0xFFu), y = static_cast<std::int8_t>((b >> (8 * k)) & 0xFFu);
    const std::int8_t v = (x >= y) == larger ? x : y;
    r |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(v)) << (8 * k);
  }
  return r;
}
inline std::uint32_t max_bytes(std::uint32_t a, std::uint32_t b) { return pick_bytes(a, b, true); }
inline std::uint32_t min_bytes(std::uint32_t a, std::uint32_t b) { return pick_bytes(a, b, false); }
#endif

// The rows of a broadcast: the innermost axes of `out` along which each operand either advances with the result
// (steps) or stays on one element, their element count (length), and the outer axes with each operand's strides.
struct broadcast_rows {
  std::int64_t length = 1;
  bool a_steps = false, b_steps = false;
  std::int32_t outer_rank = 0;
  std::array<std::int64_t, max_rank> extent{}, a_stride{}, b_stride{};
  constexpr std::int64_t rows(std::int64_t elements) const { return elements / length; }
};

constexpr broadcast_rows broadcast_rows_of(const shape& a, const shape& b, const shape& out) {
  const auto stride_a = reference::detail::broadcast_strides(a, out);
  const auto stride_b = reference::detail::broadcast_strides(b, out);
  broadcast_rows r{};
  // Per operand: 0 undecided (axes of extent 1 so far), 1 advancing, 2 staying.
  int mode_a = 0, mode_b = 0;
  std::int32_t d = out.rank - 1;
  for (; d >= 0; --d) {
    const auto du = static_cast<std::size_t>(d);
    if (out[d] == 1) continue;
    const int axis_a = stride_a[du] == 0 ? 2 : 1, axis_b = stride_b[du] == 0 ? 2 : 1;
    if ((mode_a != 0 && mode_a != axis_a) || (mode_b != 0 && mode_b != axis_b)) break;
    mode_a = axis_a;
    mode_b = axis_b;
    r.length *= out[d];
  }
  r.a_steps = mode_a == 1;
  r.b_steps = mode_b == 1;
  r.outer_rank = d + 1;
  for (std::int32_t k = 0; k <= d; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    r.extent[ku] = out[k];
    r.a_stride[ku] = stride_a[ku];
    r.b_stride[ku] = stride_b[ku];
  }
  return r;
}

// row(a_row, b_row, out_row) for each of the `rows` rows of `walk` in order: the outer axes' odometer steps each
// operand's row start by its strides (the MVE MUL kernel's walk too, kernel/arm/mve/mul.hpp).
template <class Row>
[[gnu::always_inline]] inline void for_each_row(const broadcast_rows& walk, std::int64_t rows, const std::int8_t* a, const std::int8_t* b,
                                                std::int8_t* out, Row&& row) {
  std::array<std::int64_t, max_rank> index{};
  std::int64_t ia = 0, ib = 0;
  for (std::int64_t r = 0; r < rows; ++r, out += walk.length) {
    row(a + ia, b + ib, out);
    for (std::int32_t d = walk.outer_rank - 1; d >= 0; --d) {
      const auto du = static_cast<std::size_t>(d);
      ia += walk.a_stride[du];
      ib += walk.b_stride[du];
      if (++index[du] < walk.extent[du]) break;
      ia -= walk.a_stride[du] * walk.extent[du];
      ib -= walk.b_stride[du] * walk.extent[du];
      index[du] = 0;
    }
  }
}

// The result of PRELU's non-negative side for each int8 input value (index x + 128), by the reference's arithmetic.
template <std::int32_t InputOffset, std::int32_t Multiplier, std::int32_t Shift, std::int32_t OutputOffset>
constexpr std::array<std::int8_t, 256> make_prelu_positive_table() {
  namespace q = ctnn::detail::quant;
  std::array<std::int8_t, 256> table{};
  for (std::int32_t index = 0; index < 256; ++index) {
    const std::int32_t x = index - 128 + InputOffset;
    const std::int32_t v = x < 0 ? 0 : q::wrapping_add(OutputOffset, q::multiply_by_quantized_multiplier(x, Multiplier, Shift));
    table[static_cast<std::size_t>(index)] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
  return table;
}
template <std::int32_t InputOffset, std::int32_t Multiplier, std::int32_t Shift, std::int32_t OutputOffset>
inline constexpr std::array<std::int8_t, 256> prelu_positive_table_v =
    make_prelu_positive_table<InputOffset, Multiplier, Shift, OutputOffset>();

template <kernel_params P>
struct broadcast_binary_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool table_op = P.kind == op_kind::add || P.kind == op_kind::sub || P.kind == op_kind::squared_difference;
  static constexpr bool extremum = P.kind == op_kind::maximum || P.kind == op_kind::minimum;
  static constexpr bool supports =
      dsp_available && P.type == dtype::i8 && P.requantization == requantization_policy::tflite &&
      (table_op || extremum || P.kind == op_kind::mul || P.kind == op_kind::prelu) && P.out.rank >= 1 &&
      P.out.elements() > 0 && (!table_op || (P.left_shift >= 0 && P.left_shift < 32)) &&
      (P.kind == op_kind::prelu || extremum || kernel::detail::is_output_clamp(P.fused));

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* a = static_cast<const std::int8_t*>(operands[0]);
    const auto* b = static_cast<const std::int8_t*>(operands[N > 1 ? 1 : 0]);
    auto* out = static_cast<std::int8_t*>(result);
    constexpr std::int64_t rows = walk.rows(P.out.elements());
    if constexpr (walk.outer_rank == 0) {
      row(a, b, out);
    } else {
      for_each_row(walk, rows, a, b, out, row);
    }
  }

 private:
  static constexpr broadcast_rows walk = broadcast_rows_of(P.in, P.in2, P.out);
  // ADD's and SUB's tables: each input's rescale; where their sum (difference) stays below 2^30 in magnitude and
  // the output shift is a right one, the short output stage applies (add.hpp's reasoning).
  static constexpr const std::array<std::int32_t, 256>& table_a =
      rescale_table_v<P.input_offset, P.input_multiplier, P.input_shift, (table_op ? P.left_shift : 0)>;
  static constexpr const std::array<std::int32_t, 256>& table_b =
      rescale_table_v<P.input2_offset, P.input2_multiplier, P.input2_shift, (table_op ? P.left_shift : 0)>;
  static constexpr bool short_sum = (P.kind == op_kind::add || P.kind == op_kind::sub) && P.output_shift <= -1 &&
                                    largest_magnitude(table_a) + largest_magnitude(table_b) < (std::int64_t{1} << 30);
  static constexpr std::int64_t length = walk.length;

  // Element k of an operand's row: a staying operand's one element is read before the row's loop (`first`), as the
  // result's stores may alias it for the compiler.
  template <bool Steps>
  [[gnu::always_inline]] static std::int32_t at(const std::int8_t* x, std::int64_t k, std::int32_t first) {
    return Steps ? x[k] : first;
  }

  [[gnu::noinline]] static void row(const std::int8_t* a, const std::int8_t* b, std::int8_t* out) {
    const std::int32_t a0 = a[0], b0 = b[0];
    if constexpr (extremum) {
      extremum_row(a, b, out, a0, b0);
    } else if constexpr (table_op && short_sum && output_stage<P>::clamped) {
      // add.hpp's clamped short stage over doubled tables: SMMLAR and a shift.
      const std::int32_t* doubled_a = rescale_table_v<P.input_offset, P.input_multiplier, P.input_shift, P.left_shift, 2>.data() + 128;
      const std::int32_t* doubled_b = rescale_table_v<P.input2_offset, P.input2_multiplier, P.input2_shift, P.left_shift, 2>.data() + 128;
#pragma GCC unroll 2
      for (std::int64_t k = 0; k < length; ++k) {
        const std::int32_t x = doubled_a[at<walk.a_steps>(a, k, a0)], y = doubled_b[at<walk.b_steps>(b, k, b0)];
        out[k] = clamp_output<P>(
            rounding_high_mul_add(P.kind == op_kind::add ? x + y : x - y, P.output_multiplier, output_stage<P>::tensor_rounding) >>
            -P.output_shift);
      }
    } else if constexpr (table_op) {
      const std::int32_t* rescaled_a = table_a.data() + 128;
      const std::int32_t* rescaled_b = table_b.data() + 128;
#pragma GCC unroll 2
      for (std::int64_t k = 0; k < length; ++k) {
        const auto x = static_cast<std::uint32_t>(rescaled_a[at<walk.a_steps>(a, k, a0)]);
        const auto y = static_cast<std::uint32_t>(rescaled_b[at<walk.b_steps>(b, k, b0)]);
        if constexpr (P.kind == op_kind::squared_difference) {
          const std::uint32_t difference = x - y;
          out[k] = clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(static_cast<std::int32_t>(difference * difference)));
        } else {
          const auto sum = static_cast<std::int32_t>(P.kind == op_kind::add ? x + y : x - y);
          if constexpr (short_sum) out[k] = output_stage<P>{}.template apply<true>(sum);
          else out[k] = clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(sum));
        }
      }
    } else if constexpr (P.kind == op_kind::mul) {
#pragma GCC unroll 2
      for (std::int64_t k = 0; k < length; ++k) {
        const std::int32_t product = (at<walk.a_steps>(a, k, a0) + P.input_offset) * (at<walk.b_steps>(b, k, b0) + P.input2_offset);
        out[k] = clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(product));
      }
    } else {
      prelu_row(a, b, out, a0, b0);
    }
  }

  [[gnu::always_inline]] static void extremum_row(const std::int8_t* a, const std::int8_t* b, std::int8_t* out, std::int32_t a0,
                                                  std::int32_t b0) {
    constexpr bool larger = P.kind == op_kind::maximum;
    // Whole words where an operand advances (with both staying, one element repeated: the scalar loop).
    constexpr std::int64_t words_end = walk.a_steps || walk.b_steps ? length - length % 4 : 0;
    if constexpr (words_end > 0) {
      const std::uint32_t a_word = walk.a_steps ? 0u : 0x01010101u * static_cast<std::uint8_t>(a0);
      const std::uint32_t b_word = walk.b_steps ? 0u : 0x01010101u * static_cast<std::uint8_t>(b0);
#pragma GCC unroll 2
      for (std::int64_t k = 0; k < words_end; k += 4) {
        const std::uint32_t x = walk.a_steps ? load_word(a + k) : a_word;
        const std::uint32_t y = walk.b_steps ? load_word(b + k) : b_word;
        const std::uint32_t picked = larger ? max_bytes(x, y) : min_bytes(x, y);
        std::memcpy(out + k, &picked, 4);
      }
    }
    if constexpr (words_end < length) {
      for (std::int64_t k = words_end; k < length; ++k) {
        const auto x = static_cast<std::int8_t>(at<walk.a_steps>(a, k, a0)), y = static_cast<std::int8_t>(at<walk.b_steps>(b, k, b0));
        out[k] = larger ? (x > y ? x : y) : (x < y ? x : y);
      }
    }
  }

  // PRELU: rectify(x + input_offset, alpha + input2_offset) (reference/int8/activation.hpp).
  [[gnu::always_inline]] static void prelu_row(const std::int8_t* x, const std::int8_t* alpha, std::int8_t* out, std::int32_t a0,
                                               std::int32_t b0) {
    const std::int8_t* positive = prelu_positive_table_v<P.input_offset, P.output_multiplier, P.output_shift, P.output_offset>.data() + 128;
    constexpr std::int32_t negative_multiplier = P.negative_side().multiplier;
    constexpr std::int32_t magnitude =
        negative_multiplier < 0 ? ctnn::detail::quant::wrapping_neg(negative_multiplier) : negative_multiplier;
#pragma GCC unroll 2
    for (std::int64_t k = 0; k < length; ++k) {
      const std::int32_t v = at<walk.a_steps>(x, k, a0);
      const std::int32_t shifted = v + P.input_offset;
      if (shifted >= 0) {
        out[k] = positive[v];
      } else {
        std::int32_t scaled = scale_plus<magnitude, P.negative_side().shift, 0>(shifted * (at<walk.b_steps>(alpha, k, b0) + P.input2_offset));
        if constexpr (negative_multiplier < 0) scaled = ctnn::detail::quant::wrapping_neg(scaled);
        const std::int32_t value = ctnn::detail::quant::wrapping_add(P.output_offset, scaled);
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
        out[k] = static_cast<std::int8_t>(__ssat(value, 8));
#else
        out[k] = static_cast<std::int8_t>(value < -128 ? -128 : (value > 127 ? 127 : value));
#endif
      }
    }
  }
};

}  // namespace ctnn::kernel::arm::detail
