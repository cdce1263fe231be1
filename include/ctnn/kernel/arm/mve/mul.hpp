#pragma once
// int8 MUL on Armv8.1-M MVE with numpy broadcasting, bit-exact with ops::mul (reference::int8::mul_one, TFLite's
// recipe): (x + offset1) * (y + offset2) in int32, MultiplyByQuantizedMultiplier by the output multiplier and
// shift (mve/vector.hpp: VQRDMULH and the rounding shift with TFLite's half away from zero), plus the output
// zero point, clamped to the fused activation's range.
//
// The walk is the DSP kernel's (kernel/arm/broadcast.hpp, broadcast_rows): rows along which each operand either
// advances with the result or stays on one element. A row goes 16 elements a step, the last step predicated
// (VCTP): one 16-byte load per advancing operand (a staying one is a constant vector), widened to int16 by its
// even and odd bytes (VMOVLB/VMOVLT) plus its offset (at most 255 in magnitude), the four int32 products of
// bytes 4k, 4k+2, 4k+1 and 4k+3 (VMULLB/VMULLT), each rescaled; the four narrowed back into byte order with
// saturation (VQMOVNB/VQMOVNT, to int16, then to int8) and clamped on 16 lanes. Where the rescaled product stays
// below 2^30 in magnitude (a right shift or a small left one) the output zero point is added after the first
// narrowing, on eight int16 lanes (saturating: a value beyond int16 clamps to the same bound either way); else in
// int32, wrapping as TFLite's. A step reads its 16 elements of both operands before it writes them, so a result
// placed over its full-size operand (the planner's in-place binary op) stays correct.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/broadcast.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::mve::detail {

template <kernel_params P>
struct mul_kernel : kernel::detail::reads_constants_as_stored {
  // The DSP kernel's shapes (broadcast.hpp's supports for MUL), so that the MVE family takes every call it takes.
  static constexpr bool supports = mve_available && P.kind == op_kind::mul && P.type == dtype::i8 &&
                                   P.requantization == requantization_policy::tflite && P.out.rank >= 1 && P.out.elements() > 0 &&
                                   kernel::detail::is_output_clamp(P.fused);

#if CTNN_ARM_MVE
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* a = static_cast<const std::int8_t*>(operands[0]);
    const auto* b = static_cast<const std::int8_t*>(operands[N > 1 ? 1 : 0]);
    auto* out = static_cast<std::int8_t*>(result);
    constexpr std::int64_t rows = walk.rows(P.out.elements());
    if constexpr (walk.outer_rank == 0) {
      row(a, b, out);
    } else if constexpr (flat) {
      // Each operand either has the result's shape (its rows follow each other) or the same row throughout (a
      // per-channel constant): no odometer, the rows inline.
      for (std::int64_t r = 0; r < rows; ++r, out += length) {
        row_steps(a_full ? a + r * length : a, b_full ? b + r * length : b, out);
      }
    } else {
      arm::detail::for_each_row(walk, rows, a, b, out, row);
    }
  }
#else
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
#endif

 private:
  static constexpr arm::detail::broadcast_rows walk = arm::detail::broadcast_rows_of(P.in, P.in2, P.out);
  static constexpr std::int64_t length = walk.length;
  // |product| <= 255^2 < 2^16; rescaled by a multiplier below one and 2^shift: below 2^30 for shifts up to 14.
  static constexpr bool offset_in_int16 = P.output_shift <= 14;
  // Whether an operand's row starts at the result row's offset in it (it has the result's shape), or at its start
  // on every row (stride 0 on every outer axis).
  static constexpr bool a_full = P.in == P.out, b_full = P.in2 == P.out;
  static constexpr bool same_row(const std::array<std::int64_t, max_rank>& stride) {
    for (std::int32_t d = 0; d < walk.outer_rank; ++d)
      if (stride[static_cast<std::size_t>(d)] != 0) return false;
    return true;
  }
  static constexpr bool flat = (a_full || same_row(walk.a_stride)) && (b_full || same_row(walk.b_stride));

#if CTNN_ARM_MVE
  // An operand's 16 bytes widened to int16 plus its offset: the even bytes' lanes and the odd ones'.
  struct widened {
    int16x8_t even, odd;
  };
  [[gnu::always_inline]] static inline widened widen(int8x16_t v, std::int16_t offset) {
    return {vaddq_n_s16(vmovlbq_s8(v), offset), vaddq_n_s16(vmovltq_s8(v), offset)};
  }
  // Eight products rescaled (offset_in_int16 false: plus the zero point), narrowed with saturation to int16:
  // `low`'s into the even int16 lanes, `high`'s into the odd ones.
  [[gnu::always_inline]] static inline int16x8_t rescaled_pair(int32x4_t low, int32x4_t high) {
    int32x4_t l = multiply_by_quantized_multiplier<P.output_multiplier, P.output_shift>(low);
    int32x4_t h = multiply_by_quantized_multiplier<P.output_multiplier, P.output_shift>(high);
    if constexpr (!offset_in_int16) {
      l = vaddq_n_s32(l, P.output_offset);
      h = vaddq_n_s32(h, P.output_offset);
    }
    int16x8_t v = vqmovntq_s32(vqmovnbq_s32(vuninitializedq_s16(), l), h);
    if constexpr (offset_in_int16) v = vqaddq_n_s16(v, static_cast<std::int16_t>(P.output_offset));
    return v;
  }
  // The 16 results of two widened operands, clamped, in byte order.
  [[gnu::always_inline]] static inline int8x16_t results(const widened& x, const widened& y) {
    // int16 lanes of `even`: bytes 0, 2, ..., 14; VMULLB takes lanes 0, 2, 4, 6 (bytes 0, 4, 8, 12), VMULLT 1, 3, 5, 7.
    const int16x8_t even = rescaled_pair(vmullbq_int_s16(x.even, y.even), vmulltq_int_s16(x.even, y.even));
    const int16x8_t odd = rescaled_pair(vmullbq_int_s16(x.odd, y.odd), vmulltq_int_s16(x.odd, y.odd));
    int8x16_t v = vqmovntq_s16(vqmovnbq_s16(vuninitializedq_s8(), even), odd);
    constexpr std::int32_t low = P.activation_min > -128 ? P.activation_min : -128;
    constexpr std::int32_t high = P.activation_max < 127 ? P.activation_max : 127;
    if constexpr (low > -128) v = vmaxq_s8(v, vdupq_n_s8(static_cast<std::int8_t>(low)));
    if constexpr (high < 127) v = vminq_s8(v, vdupq_n_s8(static_cast<std::int8_t>(high)));
    return v;
  }

  [[gnu::noinline]] static void row(const std::int8_t* a, const std::int8_t* b, std::int8_t* out) { row_steps(a, b, out); }
  [[gnu::always_inline]] static inline void row_steps(const std::int8_t* a, const std::int8_t* b, std::int8_t* out) {
    constexpr auto offset_a = static_cast<std::int16_t>(P.input_offset), offset_b = static_cast<std::int16_t>(P.input2_offset);
    // A staying operand: its one element, widened once.
    const widened a_fixed = widen(vdupq_n_s8(a[0]), offset_a), b_fixed = widen(vdupq_n_s8(b[0]), offset_b);
    constexpr std::int64_t steps = length / 16;
#pragma GCC unroll 1
    for (std::int64_t k = 0; k < steps; ++k) {
      const widened x = walk.a_steps ? widen(vldrbq_s8(a + 16 * k), offset_a) : a_fixed;
      const widened y = walk.b_steps ? widen(vldrbq_s8(b + 16 * k), offset_b) : b_fixed;
      vstrbq_s8(out + 16 * k, results(x, y));
    }
    if constexpr (length % 16 != 0) {
      const mve_pred16_t lanes = vctp8q(length % 16);
      const widened x = walk.a_steps ? widen(vldrbq_z_s8(a + 16 * steps, lanes), offset_a) : a_fixed;
      const widened y = walk.b_steps ? widen(vldrbq_z_s8(b + 16 * steps, lanes), offset_b) : b_fixed;
      vstrbq_p_s8(out + 16 * steps, results(x, y), lanes);
    }
  }
#endif
};

}  // namespace ctnn::kernel::arm::mve::detail
