#pragma once
// int8 SVDF (ops/svdf.hpp: TFLM's int8 form, with int16 or int8 state and time weights) on Armv7E-M DSP,
// bit-exact with the reference kernel (ops::svdf::run_i8), for calls not run in place.
//
// Per batch row, per block of 4 filters:
//   * the feature dot products: the input widened once per row (SXTAB16 adds the input offset: widen_quads,
//     detail/dot.hpp), the feature weights re-laid out at compile time (pack<1>) as int16 pairs in the same
//     even/odd order, 4 filters side by side, so that one quad of input serves 4 filters with 8 SMLADs and
//     no widening of the weights (a zero-padded tail quad and zero-padded filters: zero products;
//     dot_4_pair_rows, detail/dot.hpp);
//   * each filter's response requantized to the state's scale, clamped, stored as the reference stores it;
//   * the state shift fused with the time-weighted sum: the reference moves the whole state one element
//     towards its start, then appends each filter's response, then sums time weight times state per filter.
//     A row's last slot takes the next row's first element in that move, which the new response overwrites,
//     so the move is per row; here each row's words are loaded one element further on (an unaligned LDR: the
//     state values the sum needs anyway), stored one element back, and multiplied with the time weights
//     (SMLAD on int16 pairs; SXTB16 on both sides for int8), the new response stored in the last slot. The
//     state keeps the reference's layout (reset_state and state_bytes see the same bytes), and the buffer
//     is moved in the same pass that reads it.
//   * the state's zero point (state_offset) in the sums as offset * sum of the time weights (wrapping, as
//     the reference's int32 sums do); the units' sums of `rank` filters in order, requantized to int8.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

namespace ctnn::kernel::arm::detail {

// Four bytes to any address (STR: Armv7-M allows unaligned word stores).
[[gnu::always_inline]] inline void store_word(void* p, std::uint32_t word) { std::memcpy(p, &word, 4); }


template <kernel_params P>
struct svdf_kernel {
  static constexpr std::int32_t batch = P.in[0], input_size = P.in[1], filters = P.in2[0], memory = P.in3[1];
  static constexpr std::int32_t rank = P.svdf().rank, units = P.out[1];
  static constexpr bool state16 = P.svdf().state_type == dtype::i16;
  using state_t = std::conditional_t<state16, std::int16_t, std::int8_t>;
  static constexpr std::int32_t quads = (input_size + 3) / 4;
  static constexpr std::int32_t groups = (filters + 3) / 4;
  // The widened input row lives on the stack: 2 bytes per input value.
  static constexpr std::int32_t max_input_size = 256;

  static constexpr bool supports = dsp_available && P.kind == op_kind::svdf && P.type == dtype::i8 &&
                                   (P.svdf().state_type == dtype::i16 || P.svdf().state_type == dtype::i8) && P.in.rank == 2 &&
                                   P.out.rank == 2 && P.in_place == 0 && input_size >= 1 && input_size <= max_input_size &&
                                   memory >= 1 && rank >= 1 && filters == units * rank && P.in2[1] == input_size;

  // The feature weights [filters, input_size], per block of 4 filters, per quad of inputs, per filter: the
  // words (w0, w2) and (w1, w3) as int16 pairs (w0 in the low half), zero past input_size and past filters.
  static constexpr std::size_t packed_words = static_cast<std::size_t>(groups) * static_cast<std::size_t>(quads) * 8;
  static constexpr bool packs(std::size_t k) { return k == 1; }
  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, packed_words> pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the DSP SVDF kernel packs its feature weights only.");
    std::array<std::int32_t, packed_words> words{};
    std::size_t at = 0;
    for (std::int32_t f = 0; f < filters; ++f)
      for (std::int32_t k = 0; k < input_size; ++k, ++at) {
        const std::size_t word = ((static_cast<std::size_t>(f / 4) * quads + static_cast<std::size_t>(k / 4)) * 4 + static_cast<std::size_t>(f % 4)) * 2 +
                                 static_cast<std::size_t>(k % 2);
        const auto half = static_cast<std::uint32_t>(static_cast<std::uint16_t>(static_cast<std::int16_t>(read.i8(at))));
        words[word] = static_cast<std::int32_t>(static_cast<std::uint32_t>(words[word]) | (half << (16 * ((k % 4) / 2))));
      }
    return words;
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    static_assert(N >= 5, "ctnn: SVDF reads its input, weights, time weights, bias and state.");
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    const auto* packed = static_cast<const std::int32_t*>(operands[1]);
    const auto* time = static_cast<const state_t*>(operands[2]);
    const auto* bias = static_cast<const std::int32_t*>(operands[3]);
    auto* state = static_cast<state_t*>(const_cast<void*>(operands[4]));  // ops::svdf::state_operands: writable
    auto* output = static_cast<std::int8_t*>(result);
    for (std::int32_t b = 0; b < batch; ++b)
      row(input + static_cast<std::ptrdiff_t>(b) * input_size, packed, time, bias,
          state + static_cast<std::ptrdiff_t>(b) * filters * memory, output + static_cast<std::ptrdiff_t>(b) * units);
  }

 private:
  static constexpr std::uint32_t offset_pair = both_halves(P.input_offset);
  static constexpr std::int32_t state_offset = P.svdf().state_offset;

  // One batch row. Out of line: the widened input is on the stack during this call only.
  [[gnu::noinline]] static void row(const std::int8_t* input, const std::int32_t* packed, const state_t* time, const std::int32_t* bias,
                                    state_t* state, std::int8_t* output) {
    std::uint32_t x[2 * quads];
    widen_quads(input, x, input_size / 4, offset_pair);
    if constexpr (input_size % 4 != 0) {
      std::int8_t tail[4] = {};
      for (std::int32_t k = 0; k < input_size % 4; ++k) tail[k] = input[input_size / 4 * 4 + k];
      widen_quads(tail, x + 2 * (input_size / 4), 1, offset_pair);
    }
    std::int32_t unit_sum = 0;
    const std::int32_t* w = packed;
    for (std::int32_t g = 0; g < groups; ++g) {
      std::int32_t acc[4] = {0, 0, 0, 0};
      dot_4_pair_rows<quads>(x, w, acc);
#pragma GCC unroll 4
      for (int c = 0; c < 4; ++c) {
        const std::int32_t f = 4 * g + c;
        if (filters % 4 != 0 && f >= filters) break;
        const std::int32_t filtered = shift_and_filter(state + static_cast<std::ptrdiff_t>(f) * memory,
                                                       time + static_cast<std::ptrdiff_t>(f) * memory, to_state(acc[c]));
        if (rank == 1 || f % rank == 0) unit_sum = P.has_bias != 0 ? bias[f / rank] : 0;
        unit_sum = wrapping_add(unit_sum, filtered);
        if (rank == 1 || f % rank == rank - 1) output[f / rank] = to_output(unit_sum);
      }
    }
  }

  // A filter's response at the state's scale, clamped to the state's type, less the state's offset (the
  // reference's stored value).
  [[gnu::always_inline]] static state_t to_state(std::int32_t dot) {
    const std::int32_t scaled = saturate<state16 ? 16 : 8>(scale_plus<P.input_multiplier, P.input_shift, 0>(dot));
    return static_cast<state_t>(scaled - state_offset);
  }

  [[gnu::always_inline]] static std::int8_t to_output(std::int32_t sum) {
    return static_cast<std::int8_t>(saturate<8>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(sum)));
  }

  // The state's offset term of a filter: state_offset * sum of its time weights.
  [[gnu::always_inline]] static std::int32_t offset_sum(const state_t* w) {
    if constexpr (state_offset == 0) {
      return 0;
    } else {
      std::int32_t sum = 0;
      for (std::int32_t t = 0; t < memory; ++t) sum += w[t];
      return offset_term(state_offset, sum);
    }
  }

  // One filter's memory (`slots`, memory values) one step older with `fresh` appended, and the sum of its
  // time weights `w` times the new memory (plus the offset term).
  [[gnu::always_inline]] static std::int32_t shift_and_filter(state_t* slots, const state_t* w, state_t fresh) {
    std::int32_t acc = offset_sum(w);
    if constexpr (state16) {
      constexpr std::int32_t pairs = (memory - 1) / 2;
#pragma GCC unroll 8
      for (std::int32_t j = 0; j < pairs; ++j) {
        const std::uint32_t older = load_word(slots + 2 * j + 1);
        store_word(slots + 2 * j, older);
        acc = smlad(older, load_word(w + 2 * j), acc);
      }
      if constexpr ((memory - 1) % 2 != 0) {  // the last old value and the fresh one: one word
        const std::uint32_t last = low_halves(static_cast<std::uint32_t>(static_cast<std::uint16_t>(slots[memory - 1])),
                                              static_cast<std::uint32_t>(static_cast<std::uint16_t>(fresh)));
        store_word(slots + memory - 2, last);
        acc = smlad(last, load_word(w + memory - 2), acc);
      } else {
        slots[memory - 1] = fresh;
        acc = wrapping_add(acc, std::int32_t{w[memory - 1]} * fresh);
      }
    } else {
      constexpr std::int32_t steps = (memory - 1) / 4;
#pragma GCC unroll 4
      for (std::int32_t j = 0; j < steps; ++j) {
        const std::uint32_t older = load_word(slots + 4 * j + 1);
        store_word(slots + 4 * j, older);
        const std::uint32_t weights = load_word(w + 4 * j);
        acc = smlad(sxtb16_ror8(older), sxtb16_ror8(weights), smlad(sxtb16(older), sxtb16(weights), acc));
      }
#pragma GCC unroll 4
      for (std::int32_t t = 4 * steps; t < memory - 1; ++t) {
        slots[t] = slots[t + 1];
        acc = wrapping_add(acc, std::int32_t{w[t]} * slots[t]);
      }
      slots[memory - 1] = fresh;
      acc = wrapping_add(acc, std::int32_t{w[memory - 1]} * fresh);
    }
    return acc;
  }
};

}  // namespace ctnn::kernel::arm::detail
