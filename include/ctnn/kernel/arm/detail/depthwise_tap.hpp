#pragma once
// One depthwise tap for 2 pixels x 4 channels, the input offset term already in the accumulators: shared
// by the DSP depthwise kernels (kernel/arm/depthwise.hpp, depthwise_multiplier.hpp).
#include <cstddef>
#include <cstdint>

#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>

namespace ctnn::kernel::arm::detail {

// acc[k] += (x[k] + offset) * w[k] for k < 4 (offset_pair: the input offset in both halves, added by SXTAB16).
[[gnu::always_inline]] inline void depthwise_tap_1x4(const std::int8_t* x, const std::int8_t* w, std::uint32_t offset_pair, std::int32_t (&acc)[4]) {
  const std::uint32_t xw = load_word(x), ww = load_word(w);
  const std::uint32_t x_even = sxtab16(offset_pair, xw), x_odd = sxtab16_ror8(offset_pair, xw);
  const std::uint32_t w_even = sxtb16(ww), w_odd = sxtb16_ror8(ww);
  acc[0] = smlabb(x_even, w_even, acc[0]);
  acc[1] = smlabb(x_odd, w_odd, acc[1]);
  acc[2] = smlatt(x_even, w_even, acc[2]);
  acc[3] = smlatt(x_odd, w_odd, acc[3]);
}

// a[k] += x[X0 + k] * w[WOffset + k], b[k] += x[X1 + k] * w[WOffset + k] for k < 4: the weight word widened
// once (SXTB16 twice), one SMLABB / SMLATT per product. Asm: as depthwise_tap_2x4_asm (17 instructions, 14
// registers; the caller checks asm_depthwise_fits for its largest offsets), else the same in C++.
template <bool Asm, std::ptrdiff_t X0, std::ptrdiff_t X1, std::ptrdiff_t WOffset>
[[gnu::always_inline]] inline void depthwise_tap_2x4(const std::int8_t* x, const std::int8_t* w, std::int32_t (&a)[4], std::int32_t (&b)[4]) {
  if constexpr (Asm) {
    depthwise_tap_2x4_asm<X0, X1, WOffset>(x, w, a, b);
  } else {
    const std::uint32_t ww = load_word(w + WOffset);
    const std::uint32_t w_even = sxtb16(ww), w_odd = sxtb16_ror8(ww);
    const std::uint32_t x0 = load_word(x + X0), x1 = load_word(x + X1);
    const std::uint32_t x0_even = sxtb16(x0), x0_odd = sxtb16_ror8(x0), x1_even = sxtb16(x1), x1_odd = sxtb16_ror8(x1);
    a[0] = smlabb(x0_even, w_even, a[0]);
    a[1] = smlabb(x0_odd, w_odd, a[1]);
    a[2] = smlatt(x0_even, w_even, a[2]);
    a[3] = smlatt(x0_odd, w_odd, a[3]);
    b[0] = smlabb(x1_even, w_even, b[0]);
    b[1] = smlabb(x1_odd, w_odd, b[1]);
    b[2] = smlatt(x1_even, w_even, b[2]);
    b[3] = smlatt(x1_odd, w_odd, b[3]);
  }
}

}  // namespace ctnn::kernel::arm::detail
