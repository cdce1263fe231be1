#pragma once
// int8 ops whose output is a function of the input value alone, on Armv7E-M DSP, bit-exact with their reference
// kernels: logistic (TFLite LOGISTIC, ONNX Sigmoid) and tanh (reference::int8::logistic_or_tanh), and QUANTIZE of
// int8 to int8 or uint8 and of uint8 to int8 (reference::requantize). The call's 256 outputs are computed by the compiler with the
// reference kernel itself (in flash: 256 bytes, less than the reference's code) and each element is one load from
// the table. TFLM's reference kernels compute the fixed-point logistic or tanh of every element (a hundred
// instructions and more each), and requantize each element (its uint8 <-> int8 shortcut, x ^ 0x80, five or six).
// A QUANTIZE whose table is x ^ 0x80 (uint8 <-> int8 of one scale, zero points 128 apart: a QDQ model's int8 input
// made uint8, its uint8 result made int8) flips the top bit of four bytes a word instead.
// In place (output over input) is safe: each element is read before its output is written.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/kernel/reference/quantize.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

// The reference kernel of a call with parameters P over every input value (int8: index value + 128; uint8:
// index value), as bytes.
template <kernel_params P>
constexpr std::array<std::uint8_t, 256> lookup_table() {
  constexpr kernel_params every_value = [] {
    kernel_params q = P;
    q.in = q.out = make_shape(256);
    return q;
  }();
  constexpr static_params<every_value> p{};
  std::array<std::uint8_t, 256> table{};
  if constexpr (P.type == dtype::u8) {  // QUANTIZE uint8 -> int8
    std::array<std::uint8_t, 256> values{};
    std::array<std::int8_t, 256> outputs{};
    for (std::int32_t v = 0; v < 256; ++v) values[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(v);
    reference::requantize(p, values.data(), outputs.data());
    for (std::size_t k = 0; k < 256; ++k) table[k] = static_cast<std::uint8_t>(outputs[k]);
    return table;
  }
  std::array<std::int8_t, 256> values{};
  for (std::int32_t v = 0; v < 256; ++v) values[static_cast<std::size_t>(v)] = static_cast<std::int8_t>(v - 128);
  if constexpr (P.kind == op_kind::quantize && P.out_type == dtype::u8) {
    reference::requantize(p, values.data(), table.data());
  } else {
    std::array<std::int8_t, 256> outputs{};
    if constexpr (P.kind == op_kind::quantize) reference::requantize(p, values.data(), outputs.data());
    else reference::int8::logistic_or_tanh<P.kind == op_kind::sigmoid>(p, values.data(), outputs.data());
    for (std::size_t k = 0; k < 256; ++k) table[k] = static_cast<std::uint8_t>(outputs[k]);
  }
  return table;
}

// Whether the compiler can compute it (a constant expression).
template <kernel_params P>
constexpr bool lookup_table_is_constant = false;
template <kernel_params P>
  requires requires { typename std::integral_constant<bool, (lookup_table<P>(), true)>; }
constexpr bool lookup_table_is_constant<P> = true;

template <kernel_params P>
struct lookup_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool function_of_value =
      P.kind == op_kind::sigmoid || P.kind == op_kind::tanh ? P.out_type == dtype::i8
      : P.kind == op_kind::quantize                         ? P.out_type == dtype::i8 || P.out_type == dtype::u8
                                                            : false;
  static constexpr bool input_ok = P.type == dtype::i8 || (P.type == dtype::u8 && P.kind == op_kind::quantize && P.out_type == dtype::i8);
  static constexpr bool supports = dsp_available && function_of_value && input_ok &&
                                   P.requantization == requantization_policy::tflite &&
                                   P.in.elements() == P.out.elements() && P.out.elements() < (std::int64_t{1} << 31) &&
                                   lookup_table_is_constant<P>;

  // Whether every output byte is its input byte with the top bit flipped (the table's index: the int8 value + 128,
  // which is that flip of its byte; or the uint8 value).
  static constexpr bool flips_top_bit() {
    if constexpr (!supports) {
      return false;
    } else {
      constexpr std::array<std::uint8_t, 256> table = lookup_table<P>();
      for (std::size_t k = 0; k < 256; ++k)
        if (table[k] != (P.type == dtype::i8 ? k : (k ^ 0x80u))) return false;
      return true;
    }
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    constexpr auto elements = static_cast<std::int32_t>(P.out.elements());
    if constexpr (flips_top_bit()) {
      const auto* in = static_cast<const std::uint8_t*>(operands[0]);
      auto* out = static_cast<std::uint8_t*>(result);
      for (std::int32_t i = 0; i < elements / 4 * 4; i += 4) {
        std::uint32_t word;
        std::memcpy(&word, in + i, 4);
        word ^= 0x80808080u;
        std::memcpy(out + i, &word, 4);
      }
      for (std::int32_t i = elements / 4 * 4; i < elements; ++i) out[i] = static_cast<std::uint8_t>(in[i] ^ 0x80u);
      return;
    }
    static constexpr std::array<std::uint8_t, 256> table = lookup_table<P>();
    const auto* input = static_cast<const std::conditional_t<P.type == dtype::u8, std::uint8_t, std::int8_t>*>(operands[0]);
    auto* output = static_cast<std::uint8_t*>(result);
    constexpr std::int32_t index_offset = P.type == dtype::u8 ? 0 : 128;
    const auto value = [&](std::int32_t i) { return table[static_cast<std::size_t>(input[i] + index_offset)]; };
    for (std::int32_t i = 0; i < elements / 4 * 4; i += 4) {
      const std::uint8_t a = value(i), b = value(i + 1), c = value(i + 2), d = value(i + 3);
      output[i] = a;
      output[i + 1] = b;
      output[i + 2] = c;
      output[i + 3] = d;
    }
    if constexpr (elements % 4 != 0)
      for (std::int32_t k = 0; k < elements % 4; ++k) output[elements / 4 * 4 + k] = value(elements / 4 * 4 + k);
  }
};

}  // namespace ctnn::kernel::arm::detail
