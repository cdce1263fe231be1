#pragma once
// int8 ADD of two equal shapes for Armv6-M, bit-exact with reference::int8::add_one (TFLite's recipe: each
// input plus its offset, shifted left by left_shift, rescaled by its own multiplier; the wrapping sum
// rescaled by the output multiplier, plus the output zero point, clamped).
//
// An input's rescale depends on its 256 possible values only: two tables of the reference's own arithmetic
// evaluated at compile time (arm::detail::rescale_table_v, 1 KB each, what the DSP family's add.hpp keeps for
// shapes it cannot split), so that an element costs two byte loads, two table loads, an add and the output
// stage (v6m/requantize.hpp) where the reference's three 64-bit rescales are calls to __aeabi_lmul. Element i
// of both inputs is read before element i of the result is written, as in the reference (in-place ADD).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/add.hpp>
#include <ctnn/kernel/arm/v6m/requantize.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::v6m {

template <kernel_params P>
struct add_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = P.kind == op_kind::add && P.type == dtype::i8 && P.requantization == requantization_policy::tflite &&
                                   P.in == P.out && P.in2 == P.out && P.left_shift >= 0 && P.left_shift < 32 &&
                                   kernel::detail::is_output_clamp(P.fused);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto [a, b, out] = kernel::detail::binary_operands_of(operands, result);
    constexpr const auto& first = arm::detail::rescale_table_v<P.input_offset, P.input_multiplier, P.input_shift, P.left_shift>;
    constexpr const auto& second = arm::detail::rescale_table_v<P.input2_offset, P.input2_multiplier, P.input2_shift, P.left_shift>;
    const std::int32_t* first_at = first.data() + 128;  // indexed by the int8 value itself
    const std::int32_t* second_at = second.data() + 128;
    constexpr auto elements = static_cast<std::ptrdiff_t>(P.out.elements());
    for (std::ptrdiff_t i = 0; i < elements; ++i) {
      const std::int32_t sum = wrapping_add(first_at[a[i]], second_at[b[i]]);
      out[i] = arm::detail::clamp_output<P>(scale_plus(sum, P.output_multiplier, P.output_shift, P.output_offset));
    }
  }
};

}  // namespace ctnn::kernel::arm::v6m
