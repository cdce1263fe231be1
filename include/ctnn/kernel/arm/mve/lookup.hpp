#pragma once
// int8 ops whose output is a function of the input value alone on Armv8.1-M MVE: logistic, tanh and QUANTIZE
// of int8 to int8 or uint8 and of uint8 to int8 (a QDQ model's requantizations), bit-exact with their reference
// kernels. The DSP kernel's table of the call's 256 outputs (kernel/arm/lookup.hpp: computed by the compiler with
// the reference kernel, indexed by the int8 value + 128 or the uint8 value), read sixteen elements at a time by one gather load
// (VLDRB with byte offsets: the input bytes, flipped for int8 inputs); the last step predicated. Same calls as
// the DSP kernel (its `supports`). In place (output over input) is safe: each vector is read before it is written.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/lookup.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::mve::detail {

template <kernel_params P>
struct lookup_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = mve_available && arm::detail::lookup_kernel<P>::supports;

#if CTNN_ARM_MVE
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    static constexpr std::array<std::uint8_t, 256> table = arm::detail::lookup_table<P>();
    const auto* input = static_cast<const std::uint8_t*>(operands[0]);
    auto* output = static_cast<std::uint8_t*>(result);
    constexpr auto elements = static_cast<std::int32_t>(P.out.elements());
    constexpr std::uint8_t index_flip = P.type == dtype::u8 ? 0x00 : 0x80;  // an int8 value + 128: its byte ^ 0x80
    const uint8x16_t flip = vdupq_n_u8(index_flip);
#pragma GCC unroll 1
    for (std::int32_t i = 0; i < elements; i += 16, input += 16, output += 16) {
      const mve_pred16_t lanes = vctp8q(static_cast<std::uint32_t>(elements - i));
      uint8x16_t index = vldrbq_z_u8(input, lanes);
      if constexpr (index_flip != 0) index = veorq_u8(index, flip);
      vstrbq_p_u8(output, vldrbq_gather_offset_z_u8(table.data(), index, lanes), lanes);
    }
  }
#else
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
#endif
};

}  // namespace ctnn::kernel::arm::mve::detail
