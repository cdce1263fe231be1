#pragma once
// int8 ADD of two equal shapes on Armv7E-M, bit-exact with ops::add (reference::int8::add_one: TFLite's recipe: each
// input plus its offset, shifted left by left_shift, rescaled by its own multiplier; the wrapping sum
// rescaled by the output multiplier, plus the output zero point, clamped).
//
// Each input's rescale depends on its 256 possible values only: the reference's own arithmetic
// (detail/quantization.hpp) evaluated at compile time for each of them. Where the sum stays below 2^30
// in magnitude and the output shift is a right shift (TFLite's ADD: always), the output stage is the
// short one (detail/requantize.hpp, output_stage; with a fused ReLU, the clamped one) over twice the
// sum. Twice an input's rescale is stored as a line plus a byte table (rescale_split): slope * x +
// intercept + residual[x], the slope and intercept chosen at compile time so that the residuals fit
// int8 (the rescale is the line x * multiplier * 2^(left_shift - 31 - right) rounded twice: within a
// unit of some line); the input with the larger scale has TFLite's multiplier exactly 1/2 and no
// residual at all (its line is exact). 256 bytes of .rodata per ADD where 1 KB tables per input took
// 2 KB, and an element costs two byte loads, one residual load, a shifted add, MLA, the intercept, and
// the output stage: what two word-table loads and an add cost. Shapes whose rescales do not split (no
// exact line on either side, or residuals beyond int8) keep the 1 KB tables.
// Element i of both inputs is read before element i of the result is written, as in the reference, so
// the planner's in-place ADD (an input's buffer reused for the result) stays safe.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

// MultiplyByQuantizedMultiplier((x + offset) << left_shift, multiplier, shift) for x = index - 128, times
// factor (2: the doubling of the short output stage, done here once; the caller checks the range).
constexpr std::array<std::int32_t, 256> rescale_table_of(std::int32_t offset, std::int32_t multiplier, std::int32_t shift,
                                                         std::int32_t left_shift, std::int32_t factor) {
  namespace q = ctnn::detail::quant;
  std::array<std::int32_t, 256> table{};
  for (std::int32_t index = 0; index < 256; ++index)
    table[static_cast<std::size_t>(index)] =
        factor * q::multiply_by_quantized_multiplier(q::wrapping_shift_left(index - 128 + offset, left_shift), multiplier, shift);
  return table;
}
template <std::int32_t Offset, std::int32_t Multiplier, std::int32_t Shift, std::int32_t LeftShift, std::int32_t Factor>
constexpr std::array<std::int32_t, 256> make_rescale_table() {
  return rescale_table_of(Offset, Multiplier, Shift, LeftShift, Factor);
}
template <std::int32_t Offset, std::int32_t Multiplier, std::int32_t Shift, std::int32_t LeftShift, std::int32_t Factor = 1>
inline constexpr std::array<std::int32_t, 256> rescale_table_v = make_rescale_table<Offset, Multiplier, Shift, LeftShift, Factor>();

constexpr std::int64_t largest_magnitude(const std::array<std::int32_t, 256>& table) {
  std::int64_t largest = 0;
  for (const std::int32_t v : table) {
    const std::int64_t m = v < 0 ? -static_cast<std::int64_t>(v) : v;
    largest = m > largest ? m : largest;
  }
  return largest;
}

// Twice an input's rescale (a doubled rescale_table_v) as slope * x + intercept + residual[x + 128]:
// the slope rounds the table's mean slope, the intercept centres the residuals; `fits`: every residual
// is an int8 (else the caller keeps the table); `exact`: every residual is 0.
struct rescale_split {
  std::int32_t slope = 0, intercept = 0;
  bool fits = false, exact = false;
  std::array<std::int8_t, 256> residual{};
};
constexpr rescale_split split_rescale(const std::array<std::int32_t, 256>& doubled) {
  rescale_split s{};
  const std::int64_t rise = static_cast<std::int64_t>(doubled[255]) - doubled[0];
  const std::int64_t slope = (rise >= 0 ? rise + 127 : rise - 127) / 255;
  if (slope > INT32_MAX || slope < INT32_MIN) return s;
  std::int64_t low = INT64_MAX, high = INT64_MIN;
  for (std::int32_t index = 0; index < 256; ++index) {
    const std::int64_t rest = doubled[static_cast<std::size_t>(index)] - slope * (index - 128);
    low = rest < low ? rest : low;
    high = rest > high ? rest : high;
  }
  if (high - low > 255) return s;
  const std::int64_t intercept = high == low ? low : low + 128;  // residuals in [-128, 127]; an exact line's all 0
  if (intercept > INT32_MAX || intercept < INT32_MIN) return s;
  s.slope = static_cast<std::int32_t>(slope);
  s.intercept = static_cast<std::int32_t>(intercept);
  s.fits = true;
  s.exact = high == low;
  for (std::int32_t index = 0; index < 256; ++index)
    s.residual[static_cast<std::size_t>(index)] =
        static_cast<std::int8_t>(doubled[static_cast<std::size_t>(index)] - slope * (index - 128) - intercept);
  return s;
}
template <std::int32_t Offset, std::int32_t Multiplier, std::int32_t Shift, std::int32_t LeftShift>
inline constexpr rescale_split rescale_split_v = split_rescale(rescale_table_v<Offset, Multiplier, Shift, LeftShift, 2>);
// An exact split's residuals are never read: the kernels read the bytes through this (the empty array for
// exact ones), so only the residuals in use reach .rodata.
template <std::int32_t Offset, std::int32_t Multiplier, std::int32_t Shift, std::int32_t LeftShift>
inline constexpr std::array<std::int8_t, 256> rescale_residual_v = rescale_split_v<Offset, Multiplier, Shift, LeftShift>.residual;

// a * b + c, wrapping (MLA: an assembly statement, so that the compiler keeps the sum's order).
[[gnu::always_inline]] inline std::uint32_t multiply_add(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
#if defined(__thumb2__) && defined(__OPTIMIZE__)
  std::uint32_t r;
  __asm("mla %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
#else
  return a * b + c;
#endif
}

// Twice the sum of both rescales of int8 values x and y, from their splits (A, B): one line exact (B),
// the other's residual read (A), the intercepts added once. A's residuals: `residual_a` (index x + 128).
template <const rescale_split& A, const rescale_split& B>
[[gnu::always_inline]] inline std::int32_t split_sum(const std::int8_t* residual_a, std::int32_t x, std::int32_t y) {
  constexpr std::int32_t intercept = static_cast<std::int32_t>(static_cast<std::uint32_t>(A.intercept) + static_cast<std::uint32_t>(B.intercept));
  const std::int32_t residual = A.exact ? 0 : residual_a[x];
  // B's line and the intercepts first (B's slope a power of two: one ADD with a shifted operand), then A's
  // slope by MLA, then the residual: three instructions (left to itself, g++ reassociated the sum into
  // four or five).
  const auto line = static_cast<std::uint32_t>(intercept) + static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(B.slope);
  return static_cast<std::int32_t>(multiply_add(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(A.slope), line) +
                                   static_cast<std::uint32_t>(residual));
}

template <kernel_params P>
struct add_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr std::int64_t elements = P.out.elements();
  static constexpr bool supports = dsp_available && P.kind == op_kind::add && P.type == dtype::i8 && P.in == P.out &&
                                   P.in2 == P.out && P.left_shift >= 0 && P.left_shift < 32 &&
                                   kernel::detail::is_output_clamp(P.fused);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto [a, b, out] = kernel::detail::binary_operands_of(operands, result);
    if constexpr (short_output && split) {
      // Twice the sum from the splits (the input with the exact line as B), then the short stage.
      constexpr bool b_exact = split_b.exact;
      const std::int8_t* residual = (b_exact ? split_a : split_b).exact ? nullptr : (b_exact ? residual_a : residual_b).data() + 128;
      const std::int8_t* first = b_exact ? a : b;
      const std::int8_t* second = b_exact ? b : a;
      // Eight a turn, written out (-Os does not unroll; #pragma unroll did not either over the calls):
      // the loop's pointer steps and branch spread over eight elements.
      constexpr std::int64_t whole = elements / 8 * 8;
      for (std::int64_t i = 0; i < whole; i += 8) {
#pragma GCC unroll 8
        for (int k = 0; k < 8; ++k) split_element(residual, first, second, out, i + k);
      }
      if constexpr (whole < elements)
        for (std::int64_t i = whole; i < elements; ++i) split_element(residual, first, second, out, i);
    } else if constexpr (short_output) {
      const std::int32_t* doubled_a = rescale_table_v<P.input_offset, P.input_multiplier, P.input_shift, P.left_shift, 2>.data() + 128;
      const std::int32_t* doubled_b = rescale_table_v<P.input2_offset, P.input2_multiplier, P.input2_shift, P.left_shift, 2>.data() + 128;
#pragma GCC unroll 4
      for (std::int64_t i = 0; i < elements; ++i) out[i] = short_stage(doubled_a[a[i]] + doubled_b[b[i]]);
    } else {
      // Indexed by the int8 value itself (the tables' middle).
      const std::int32_t* rescaled_a = table_a.data() + 128;
      const std::int32_t* rescaled_b = table_b.data() + 128;
      for (std::int64_t i = 0; i < elements; ++i) {
        const auto sum = static_cast<std::int32_t>(static_cast<std::uint32_t>(rescaled_a[a[i]]) + static_cast<std::uint32_t>(rescaled_b[b[i]]));
        out[i] = clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(sum));
      }
    }
  }

 private:
  static constexpr const std::array<std::int32_t, 256>& table_a =
      rescale_table_v<P.input_offset, P.input_multiplier, P.input_shift, P.left_shift>;
  static constexpr const std::array<std::int32_t, 256>& table_b =
      rescale_table_v<P.input2_offset, P.input2_multiplier, P.input2_shift, P.left_shift>;
  static constexpr bool short_output =
      P.output_shift <= -1 && largest_magnitude(table_a) + largest_magnitude(table_b) < (std::int64_t{1} << 30);
  static constexpr const rescale_split& split_a = rescale_split_v<P.input_offset, P.input_multiplier, P.input_shift, P.left_shift>;
  static constexpr const rescale_split& split_b = rescale_split_v<P.input2_offset, P.input2_multiplier, P.input2_shift, P.left_shift>;
  static constexpr const std::array<std::int8_t, 256>& residual_a =
      rescale_residual_v<P.input_offset, P.input_multiplier, P.input_shift, P.left_shift>;
  static constexpr const std::array<std::int8_t, 256>& residual_b =
      rescale_residual_v<P.input2_offset, P.input2_multiplier, P.input2_shift, P.left_shift>;
  // Both rescales split, one of them exactly (TFLite's ADD: the input with the larger scale).
  static constexpr bool split = split_a.fits && split_b.fits && (split_a.exact || split_b.exact);

  // Element i of a split sum: `first` the input whose residuals are read, `second` the exact one.
  [[gnu::always_inline]] static void split_element(const std::int8_t* residual, const std::int8_t* first, const std::int8_t* second,
                                                   std::int8_t* out, std::int64_t i) {
    if constexpr (split_b.exact) out[i] = short_stage(split_sum<split_a, split_b>(residual, first[i], second[i]));
    else out[i] = short_stage(split_sum<split_b, split_a>(residual, first[i], second[i]));
  }

  // The short output stage of twice the sum: the clamped one (SMMLAR and a shift) with a fused ReLU.
  [[gnu::always_inline]] static std::int8_t short_stage(std::int32_t twice) {
    if constexpr (output_stage<P>::clamped)
      return clamp_output<P>(rounding_high_mul_add(twice, P.output_multiplier, output_stage<P>::tensor_rounding) >> -P.output_shift);
    else return output_stage<P>{}.apply_twice(twice);
  }
};

}  // namespace ctnn::kernel::arm::detail
