#pragma once
// int8 ADD of two equal shapes on Armv7E-M, bit-exact with ops::add (reference::int8::add_one: TFLite's recipe: each
// input plus its offset, shifted left by left_shift, rescaled by its own multiplier; the wrapping sum
// rescaled by the output multiplier, plus the output zero point, clamped).
//
// Each input's rescale depends on its 256 possible values only: it is a table computed at compile time
// by the reference's own arithmetic (detail/quantization.hpp), 1 KB per input in .rodata, so an element
// costs two byte loads, two table loads, an add and the output stage. Where the tables show that the sum
// stays below 2^30 in magnitude and the output shift is a right shift (TFLite's ADD: always), the output
// stage is the short one (detail/requantize.hpp, output_stage; with a fused ReLU, the clamped one).
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

// MultiplyByQuantizedMultiplier((x + Offset) << LeftShift, Multiplier, Shift) for x = index - 128, times
// Factor (2: the doubling of the short output stage, done here once; the caller checks the range).
template <std::int32_t Offset, std::int32_t Multiplier, std::int32_t Shift, std::int32_t LeftShift, std::int32_t Factor>
constexpr std::array<std::int32_t, 256> make_rescale_table() {
  namespace q = ctnn::detail::quant;
  std::array<std::int32_t, 256> table{};
  for (std::int32_t index = 0; index < 256; ++index)
    table[static_cast<std::size_t>(index)] =
        Factor * q::multiply_by_quantized_multiplier(q::wrapping_shift_left(index - 128 + Offset, LeftShift), Multiplier, Shift);
  return table;
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

template <kernel_params P>
struct add_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr std::int64_t elements = P.out.elements();
  static constexpr bool supports = dsp_available && P.kind == op_kind::add && P.type == dtype::i8 && P.in == P.out &&
                                   P.in2 == P.out && P.left_shift >= 0 && P.left_shift < 32 &&
                                   kernel::detail::is_output_clamp(P.fused);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto [a, b, out] = kernel::detail::binary_operands_of(operands, result);
    if constexpr (short_output && output_stage<P>::clamped) {
      // The clamped short stage (detail/requantize.hpp) over doubled tables: two loads of each input, an
      // add, SMMLAR, a shift, SSAT and a store per element, four elements a turn.
      const std::int32_t* doubled_a = rescale_table_v<P.input_offset, P.input_multiplier, P.input_shift, P.left_shift, 2>.data() + 128;
      const std::int32_t* doubled_b = rescale_table_v<P.input2_offset, P.input2_multiplier, P.input2_shift, P.left_shift, 2>.data() + 128;
#pragma GCC unroll 4
      for (std::int64_t i = 0; i < elements; ++i)
        out[i] = clamp_output<P>(rounding_high_mul_add(doubled_a[a[i]] + doubled_b[b[i]], P.output_multiplier, output_stage<P>::tensor_rounding) >>
                                 -P.output_shift);
    } else {
      // Indexed by the int8 value itself (the tables' middle).
      const std::int32_t* rescaled_a = table_a.data() + 128;
      const std::int32_t* rescaled_b = table_b.data() + 128;
      for (std::int64_t i = 0; i < elements; ++i) {
        const auto sum = static_cast<std::int32_t>(static_cast<std::uint32_t>(rescaled_a[a[i]]) + static_cast<std::uint32_t>(rescaled_b[b[i]]));
        if constexpr (short_output) out[i] = output_stage<P>{}.template apply<true>(sum);
        else out[i] = clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(sum));
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
};

}  // namespace ctnn::kernel::arm::detail
