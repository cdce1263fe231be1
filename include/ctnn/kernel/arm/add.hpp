#pragma once
// int8 ADD of two equal shapes on Armv7E-M, bit-exact with reference::int8::binary (TFLite's recipe: each
// input plus its offset, shifted left by left_shift, rescaled by its own multiplier; the wrapping sum
// rescaled by the output multiplier, plus the output zero point, clamped). Every multiplier and shift is
// a compile-time constant here, each rescale one SMULL with the short exact rounding of
// detail/requantize.hpp, and (x + offset) << left_shift a single shifted add. Element i of both inputs is
// read before element i of the result is written, as in the reference, so the planner's in-place ADD
// (an input's buffer reused for the result) stays safe.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct add_kernel {
  static constexpr std::int64_t elements = P.out.elements();
  static constexpr bool supports = dsp_available && P.kind == op_kind::add && P.type == dtype::i8 && P.in == P.out &&
                                   P.in2 == P.out && P.left_shift >= 0 && P.left_shift < 32 &&
                                   (P.fused == activation::none || P.fused == activation::relu || P.fused == activation::relu6);

  static constexpr bool packs(std::size_t) { return false; }
  template <std::size_t K, class Reader>
  static constexpr int pack(const Reader&) { return 0; }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* a = static_cast<const std::int8_t*>(operands[0]);
    const auto* b = static_cast<const std::int8_t*>(operands[N > 1 ? 1 : 0]);
    auto* out = static_cast<std::int8_t*>(result);
    for (std::int64_t i = 0; i < elements; ++i) out[i] = one(a[i], b[i]);
  }

 private:
  // (x + offset) << left_shift, wrapping as the reference does.
  template <std::int32_t Offset>
  [[gnu::always_inline]] static inline std::int32_t shifted(std::int32_t x) {
    constexpr auto offset_shifted = static_cast<std::uint32_t>(Offset) << P.left_shift;
    return static_cast<std::int32_t>(offset_shifted + (static_cast<std::uint32_t>(x) << P.left_shift));
  }

  [[gnu::always_inline]] static inline std::int8_t one(std::int32_t x1, std::int32_t x2) {
    const std::int32_t scaled1 = scale<P.input_multiplier, P.input_shift>(shifted<P.input_offset>(x1));
    const std::int32_t scaled2 = scale<P.input2_multiplier, P.input2_shift>(shifted<P.input2_offset>(x2));
    const auto sum = static_cast<std::int32_t>(static_cast<std::uint32_t>(scaled1) + static_cast<std::uint32_t>(scaled2));
    return to_output<P>(scale<P.output_multiplier, P.output_shift>(sum));
  }
};

}  // namespace ctnn::kernel::arm::detail
