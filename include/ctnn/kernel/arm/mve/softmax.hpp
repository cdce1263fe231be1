#pragma once
// int8 softmax over the last axis on Armv8.1-M MVE, bit-exact with reference::int8::softmax (TFLite's recipe, which
// TFLM's reference kernel and CMSIS-NN's arm_softmax_s8 share) and with the DSP kernel (kernel/arm/softmax.hpp),
// whose arithmetic and plan it keeps: per row the max, each exp(x - max) computed once (a row's first row_buffer
// exps kept on the stack, the others computed again for the output), exp 0 below diff_min, their sum in Q12, the
// reciprocal (once a row), each output RoundingDivideByPOT(reciprocal * exp, bits_over_unit + 23) - 128.
// What MVE changes:
//   * the max: 16 bytes a step (VMAXV, the tail predicated);
//   * the exps: four int32 lanes a step. gemmlowp's SaturatingRoundingDoublingHighMul is VQRDMULH exactly (both
//     floor((a b + 2^30) / 2^31), saturated for INT32_MIN squared: mve/vector.hpp), so the exp's steps are the
//     reference's one for one: the Taylor polynomial on [-1/4, 0), the barrel shifter's multipliers applied to the
//     lanes whose remainder has the bit (predicated VQRDMULH), the roundings of non-negative values VRSHR. Calls with
//     many elements per distinct exp read them from the DSP kernel's table (a gather load, VLDRW.S32 shifted);
//   * the sum: the exps rounded to Q12 and added across the lanes into the wrapping int32 sum (VADDVA);
//   * the reciprocal: its Newton-Raphson steps on vector lanes (one instruction a step of gemmlowp's);
//   * the output: VQRDMULH by the reciprocal, VRSHL by minus the exponent (rounding half up: the product is not
//     negative, as RoundingDivideByPOT), at most 255, minus 128, stored from the int32 lanes (VSTRB.32); a row whose
//     exponent exceeds 31 (a sum of 2^28 or more) takes the reference's division lane by lane, as the DSP kernel.
// Lanes past the row's end are predicated off (VCTP) or give exp 0. In place (output over input) is safe: each row's
// elements are read before any of the row is written, and the four elements past the buffer are read (for their
// exps) before their outputs are written.
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>
#include <ctnn/kernel/arm/softmax.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::mve::detail {

#if CTNN_ARM_MVE
// fixed_point::exp_on_negative_values<5>(a) on four lanes, a <= 0 in Q5, exp(a) in Q0 (the reference's steps).
[[gnu::always_inline]] inline int32x4_t exp_q5(int32x4_t a) {
  constexpr std::int32_t one_quarter = std::int32_t{1} << 24;  // 1/4 in Q5
  constexpr std::int32_t exp_minus_one_eighth = 1895147668, one_third = 715827883;
  const int32x4_t a_mod_quarter_minus_one_quarter = vsubq_n_s32(vandq_s32(a, vdupq_n_s32(one_quarter - 1)), one_quarter);
  // exp on [-1/4, 0) around -1/8: x = a' + 1/8 in Q0 (a' in Q5 rescaled by 2^5: in [-2^29, 0), no saturation).
  const int32x4_t x = vaddq_n_s32(vshlq_n_s32(a_mod_quarter_minus_one_quarter, 5), std::int32_t{1} << 28);
  const int32x4_t x2 = vqrdmulhq_s32(x, x);
  const int32x4_t x3 = vqrdmulhq_s32(x2, x);
  const int32x4_t x4_over_4 = vrshrq_n_s32(vqrdmulhq_s32(x2, x2), 2);  // x^4 >= 0: rounding half up is half away
  const int32x4_t twice_poly = vaddq_s32(vqrdmulhq_n_s32(vaddq_s32(x4_over_4, x3), one_third), x2);
  // halved, rounding half away from zero (negative lanes lowered by one first: mve/vector.hpp's requantize).
  const int32x4_t poly = vrshrq_n_s32(vqaddq_s32(twice_poly, vshrq_n_s32(twice_poly, 31)), 1);
  int32x4_t result = vaddq_n_s32(vqrdmulhq_n_s32(vaddq_s32(x, poly), exp_minus_one_eighth), exp_minus_one_eighth);
  // exp(-2^e) for each set bit e = -2..4 of the remainder (multiples of 1/4 in Q5: bits 24..30), in that order: the
  // bit moved to the sign, VPT on it, VQRDMULH in the block. Assembly: g++ 12 computes the seven predicates first and
  // moves each through a core register (three instructions more a bit; a mask and a select instead, three more too),
  // and its test of a bit by VAND against a constant failed, an internal compiler error in trunc_int_for_mode.
  const int32x4_t remainder = vsubq_s32(a_mod_quarter_minus_one_quarter, a);
  int32x4_t bit;
  __asm("vshl.i32 %q[bit], %q[remainder], #7\n\t"
        "vpt.s32 lt, %q[bit], %[zero]\n\t"
        "vqrdmulht.s32 %q[result], %q[result], %[m0]\n\t"
        "vshl.i32 %q[bit], %q[remainder], #6\n\t"
        "vpt.s32 lt, %q[bit], %[zero]\n\t"
        "vqrdmulht.s32 %q[result], %q[result], %[m1]\n\t"
        "vshl.i32 %q[bit], %q[remainder], #5\n\t"
        "vpt.s32 lt, %q[bit], %[zero]\n\t"
        "vqrdmulht.s32 %q[result], %q[result], %[m2]\n\t"
        "vshl.i32 %q[bit], %q[remainder], #4\n\t"
        "vpt.s32 lt, %q[bit], %[zero]\n\t"
        "vqrdmulht.s32 %q[result], %q[result], %[m3]\n\t"
        "vshl.i32 %q[bit], %q[remainder], #3\n\t"
        "vpt.s32 lt, %q[bit], %[zero]\n\t"
        "vqrdmulht.s32 %q[result], %q[result], %[m4]\n\t"
        "vshl.i32 %q[bit], %q[remainder], #2\n\t"
        "vpt.s32 lt, %q[bit], %[zero]\n\t"
        "vqrdmulht.s32 %q[result], %q[result], %[m5]\n\t"
        "vshl.i32 %q[bit], %q[remainder], #1\n\t"
        "vpt.s32 lt, %q[bit], %[zero]\n\t"
        "vqrdmulht.s32 %q[result], %q[result], %[m6]"
        : [result] "+w"(result), [bit] "=&w"(bit)
        : [remainder] "w"(remainder), [zero] "r"(0), [m0] "r"(1672461947), [m1] "r"(1302514674), [m2] "r"(790015084),
          [m3] "r"(290630308), [m4] "r"(39332535), [m5] "r"(720401), [m6] "r"(242)
        : "p0");  // (VPR)
  return vpselq_s32(vdupq_n_s32(reference::int8::fixed_point::raw_max), result, vcmpeqq_n_s32(a, 0));
}

// fixed_point::get_reciprocal<12>(sum) for sum > 0 (arm::detail::softmax_math::reciprocal_of_sum's steps), the
// Newton-Raphson steps on vector lanes: SaturatingRoundingDoublingHighMul is VQRDMULH, the saturating rescales by 4
// and 2 (SaturatingRoundingMultiplyByPOT) VQSHL, the wrapping sums VADD, VSUB: one instruction each, where the core's
// 64-bit products and saturation tests take five or more.
inline reference::int8::fixed_point::reciprocal reciprocal_of_sum(std::int32_t sum) {
  const auto headroom_plus_one = static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint32_t>(sum)));
  const std::uint32_t a = (static_cast<std::uint32_t>(sum) << headroom_plus_one) - (std::uint32_t{1} << 31);  // [0, 2^31)
  // RoundingHalfSum(a, raw_max), in [2^30, 2^31).
  const int32x4_t half_denominator = vdupq_n_s32(static_cast<std::int32_t>((a + (std::uint32_t{1} << 31)) >> 1));
  constexpr std::int32_t forty_eight_seventeenths = 1515870810, minus_thirty_two_seventeenths = -1010580540;
  int32x4_t x = vaddq_n_s32(vqrdmulhq_n_s32(half_denominator, minus_thirty_two_seventeenths), forty_eight_seventeenths);
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
    const int32x4_t one_minus_half_denominator_times_x = vsubq_s32(vdupq_n_s32(1 << 29), vqrdmulhq_s32(half_denominator, x));
    x = vaddq_s32(x, vqshlq_n_s32(vqrdmulhq_s32(x, one_minus_half_denominator_times_x), 2));
  }
  return {vgetq_lane_s32(vqshlq_n_s32(x, 1), 0), 12 - headroom_plus_one};
}
#endif

template <kernel_params P>
struct softmax_kernel : kernel::detail::reads_constants_as_stored {
  using dsp = arm::detail::softmax_kernel<P>;  // the constants (diff_min, the table) and the shapes it takes
  static constexpr std::int32_t depth = dsp::depth;
  static constexpr std::int64_t rows = dsp::rows;
  static constexpr std::int32_t row_buffer = dsp::row_buffer;

  static constexpr bool supports = mve_available && dsp::supports && P.requantization == requantization_policy::tflite;

#if CTNN_ARM_MVE
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    auto* output = static_cast<std::int8_t*>(result);
    if constexpr (depth > 0)
      for (std::int64_t r = 0; r < rows; ++r) row(input + r * depth, output + r * depth);
  }
#else
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
#endif

 private:
#if CTNN_ARM_MVE
  // exp(x - largest) in Q0 for the four elements at x (lanes in `lanes`), 0 below diff_min and in the other lanes.
  [[gnu::always_inline]] static inline int32x4_t exps_of(const std::int8_t* x, std::int32_t largest, mve_pred16_t lanes) {
    const int32x4_t values = vldrbq_z_s32(x, lanes);
    if constexpr (dsp::use_table) {
      static constexpr auto table = dsp::make_table();
      const int32x4_t distance = vsubq_s32(vdupq_n_s32(largest), values);  // [0, 255] in the row's lanes
      const mve_pred16_t listed = vcmpltq_m_n_s32(distance, dsp::entries, lanes);
      return vldrwq_gather_shifted_offset_z_s32(table.data(), vreinterpretq_u32_s32(distance), listed);
    } else {
      const int32x4_t difference = vsubq_n_s32(values, largest);  // <= 0 in the row's lanes
      const mve_pred16_t counted = vcmpgeq_m_n_s32(difference, dsp::diff_min, lanes);
      // MultiplyByQuantizedMultiplierGreaterThanOne: the left shift wraps as the reference's (it cannot at or
      // above diff_min).
      int32x4_t shifted = difference;
      if constexpr (P.input_shift > 0) shifted = vshlq_n_s32(difference, P.input_shift > 0 ? P.input_shift : 1);
      const int32x4_t exps = exp_q5(vqrdmulhq_n_s32(shifted, P.input_multiplier));
      return vpselq_s32(exps, vdupq_n_s32(0), counted);
    }
  }

  // The outputs of four exps (lanes in `lanes`): exp * scale / 2^exponent rounded, at most 255, minus 128.
  [[gnu::always_inline]] static inline void store_outputs(std::int8_t* y, int32x4_t exps, std::int32_t scale, std::int32_t exponent,
                                                          mve_pred16_t lanes) {
    const int32x4_t v = vrshlq_n_s32(vqrdmulhq_n_s32(exps, scale), -exponent);
    vstrbq_p_s32(y, vsubq_n_s32(vminq_s32(v, vdupq_n_s32(255)), 128), lanes);
  }

  // The same where the exponent is above 31 (a row summing to 2^28 or more): the reference's division, lane by lane.
  [[gnu::noinline]] static void store_outputs_slowly(std::int8_t* y, int32x4_t exps, std::int32_t scale, std::int32_t exponent,
                                                     std::int32_t count) {
    std::int32_t e[4];
    vst1q_s32(e, exps);
    for (std::int32_t k = 0; k < count; ++k) {
      const std::int32_t v = ctnn::detail::quant::rounding_divide_by_pot(arm::detail::doubling_high_mul(scale, e[k]), exponent);
      y[k] = static_cast<std::int8_t>((v > 255 ? 255 : v) - 128);
    }
  }

  static void row(const std::int8_t* x, std::int8_t* y) {
    std::int8_t largest = -128;
#pragma GCC unroll 4
    for (std::int32_t c = 0; c < depth; c += 16) {
      const mve_pred16_t lanes = vctp8q(static_cast<std::uint32_t>(depth - c));
      largest = vmaxvq_p_s8(largest, vldrbq_z_s8(x + c, lanes), lanes);
    }
    constexpr std::int32_t buffered = depth < row_buffer ? depth : row_buffer;
    std::int32_t exps[(buffered + 3) / 4 * 4];
    std::int32_t sum = 0;  // Q12, wrapping as the reference's
#pragma GCC unroll 1
    for (std::int32_t c = 0; c < depth; c += 4) {  // (not unrolled: some 40 instructions a step)
      const int32x4_t e = exps_of(x + c, largest, vctp32q(static_cast<std::uint32_t>(depth - c)));
      if (c < buffered) vst1q_s32(exps + c, e);
      sum = vaddvaq_s32(sum, vrshrq_n_s32(e, 12));  // exp >= 0: rounding half up is half away
    }
    const auto inverse = reciprocal_of_sum(sum);
    const std::int32_t exponent = inverse.bits_over_unit + 23;
#pragma GCC unroll 4
    for (std::int32_t c = 0; c < depth; c += 4) {
      const mve_pred16_t lanes = vctp32q(static_cast<std::uint32_t>(depth - c));
      const int32x4_t e = c < buffered ? vld1q_s32(exps + c) : exps_of(x + c, largest, lanes);
      if (exponent <= 31) [[likely]]
        store_outputs(y + c, e, inverse.scale, exponent, lanes);
      else
        store_outputs_slowly(y + c, e, inverse.scale, exponent, depth - c < 4 ? depth - c : 4);
    }
  }
#endif
};

}  // namespace ctnn::kernel::arm::mve::detail
