#pragma once
// The shapes the Cortex-M int8 kernel families take, as rules over a call's parameters (values, not
// templates: the compiler, ctnn-inspect on the host and the docs read the same rows), and why a family
// declines a call (ir/kernel_decline.hpp):
//
//   dsp_rules, mve_rules,  one row per op kind, element type and recipe a family has a kernel for, with the
//   v6m_rules              conditions (kernel_decline reasons, violates) under which that kernel declines,
//                          in the order they are asked
//   rules_decline(rules, p)        the first reason the rows give for p (none: the family takes it)
//   cortex_m_verdict(p, isa)       which family runs p on an Armv7E-M / Armv8.1-M target, and why the
//                                  reference kernel runs it where none does
//
// The kernels' `supports` (kernel/arm/*.hpp, kernel/arm/mve/*.hpp) stay the facts: arm::i8_kernel<P>::declined
// and mve::i8_kernel<P>::declined give these reasons where `supports` is false (other_shape where no row's
// condition holds: a finer condition of the kernel's own), and pass::select_kernels checks, where the family
// is compiled, that the rows name the family whose kernel runs each call (i8_kernel<P>::runs): a kernel that
// takes more shapes needs its row updated. Needs no DSP extension (host tools read it).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include <ctnn/ir/kernel_choice.hpp>
#include <ctnn/ir/kernel_decline.hpp>
#include <ctnn/ir/kernel_params.hpp>

namespace ctnn::kernel::arm {

// A family's kernel for the calls of one op kind, element type and recipe, and the conditions under which
// it declines them (none ends the list).
struct fast_kernel_rule {
  op_kind kind = op_kind::none;
  dtype type = dtype::i8;
  requantization_policy requantization = requantization_policy::tflite;
  std::array<kernel_decline, 7> declines_when{};
};

namespace decline_detail {

constexpr std::int64_t taps(const kernel_params& p) {
  if (p.kind == op_kind::global_avg_pool) return p.in.rank == 4 ? std::int64_t{p.in[1]} * p.in[2] : 0;
  return std::int64_t{p.win.kernel_h} * p.win.kernel_w;
}

constexpr bool clamp_only(activation a) { return a == activation::none || a == activation::relu || a == activation::relu6; }

// MVE convolutions gather a window on the stack unless every pixel is one stretch of a multiple of 16 values.
// ONNX's integer calls (restated by kernel/arm/onnx_conv.hpp): NCHW convs' channels at dim 1, MatMul's depth the
// last dim, a depthwise conv (groups > 1) on the depthwise kernel, which gathers nothing.
constexpr bool mve_window_too_large(const kernel_params& p) {
  const bool dense = p.kind == op_kind::dense;
  const bool onnx = p.requantization == requantization_policy::onnx;
  if (onnx && p.kind == op_kind::conv2d && p.groups != 1) return false;
  const std::int64_t batch = p.out.rank > 0 && p.out[0] > 0 ? p.out[0] : 1;
  const std::int32_t channel_dim = onnx && p.onnx.layout != data_layout::onnx_nhwc ? 1 : 3;
  const std::int64_t in_c = dense ? (onnx ? p.in.last() : p.in.elements() / batch) : (p.in.rank == 4 ? p.in[channel_dim] : 0);
  const std::int64_t reduction = dense ? in_c : taps(p) * in_c;
  const window& w = p.win;
  const bool flat = dense || (w.kernel_h == 1 && w.kernel_w == 1 && w.stride_h == 1 && w.stride_w == 1 && w.pad_top == 0 &&
                              w.pad_left == 0 && w.pad_bottom == 0 && w.pad_right == 0);
  const bool gathers = !flat || p.in_place != 0 || reduction % 16 != 0;
  return gathers && 16 * ((reduction + 15) / 16) > 1024;
}

}  // namespace decline_detail

// Whether both of a QLinearAdd's scale ratios (an input's scale over the result's, which
// reference::onnx_quant::add_coefficients_of divides in float) are at least 2^-100 in magnitude: then every
// coefficient, product and partial sum of its two fmas is 0 or a multiple of 2^-123, never a denormal, so that float
// lanes that flush denormals (MVE's) give the reference's sums. Tested as |scale| >= 2^-99 |y_scale| in double
// (exact, no division), which the float quotient's rounding keeps at or above 2^-100; NaN scales fail it.
constexpr bool onnx_add_ratios_normal(const kernel_params& p) {
  const double y_scale = static_cast<double>(std::bit_cast<float>(p.onnx.output_scale_bits));
  const double least = (y_scale < 0 ? -y_scale : y_scale) * 0x1p-99;
  const auto at_least = [least](std::uint32_t scale_bits) {
    const double scale = static_cast<double>(std::bit_cast<float>(scale_bits));
    return scale >= least || -scale >= least;
  };
  return at_least(p.onnx.input_scale_bits) && at_least(p.onnx.input2_scale_bits);
}

// Whether call p meets reason d's condition (so that a kernel that lists d declines it).
constexpr bool violates(kernel_decline d, const kernel_params& p) {
  using decline_detail::taps;
  switch (d) {
    case kernel_decline::groups_not_1: return p.kind != op_kind::dense && p.groups != 1;
    case kernel_decline::rank_not_4: return p.in.rank != 4 || (p.out.rank != 4 && p.kind != op_kind::global_avg_pool);
    case kernel_decline::weights_offset_not_0: return p.weights_offset != 0;
    case kernel_decline::fused_activation: return !decline_detail::clamp_only(p.fused);
    case kernel_decline::depthwise_multiplier_not_1: return p.depth_multiplier != 1;
    case kernel_decline::window_over_256: return taps(p) > 256;
    case kernel_decline::window_over_511: return taps(p) > 511;
    case kernel_decline::add_shift_out_of_range: return p.left_shift < 0 || p.left_shift >= 32;
    case kernel_decline::int16_offset_not_0: return p.input_offset != 0 || p.output_offset != 0;
    case kernel_decline::in_place: return p.in_place != 0;
    case kernel_decline::width_over_256:
      return p.kind == op_kind::svdf ? p.in.rank >= 2 && p.in[1] > 256
                                     : p.in.rank == 3 && p.out.rank == 3 && (p.in[2] > 256 || p.out[2] > 256);
    case kernel_decline::svdf_state_type: return p.svdf().state_type != dtype::i16 && p.svdf().state_type != dtype::i8;
    case kernel_decline::lstm_form: return p.sequence_lstm().operand_count() != 6 || p.sequence_lstm().gates() != 4;
    case kernel_decline::dilated: return p.win.dilation_h != 1 || p.win.dilation_w != 1;
    case kernel_decline::taps_over_255: return (p.kind != op_kind::conv2d || p.groups != 1) && taps(p) > 32767 / 128;  // depthwise
    case kernel_decline::window_over_1024_bytes: return decline_detail::mve_window_too_large(p);
    case kernel_decline::elements_over_2_31: return p.out.elements() >= (std::int64_t{1} << 31);
    case kernel_decline::broadcast: return !(p.in == p.out) || !(p.in2 == p.out);
    case kernel_decline::scale_ratio_below_2_100: return !onnx_add_ratios_normal(p);
    default: return false;
  }
}

namespace decline_detail {
using d = kernel_decline;
using rq = requantization_policy;
inline constexpr std::array<kernel_decline, 7> conv_i8{d::groups_not_1, d::rank_not_4, d::weights_offset_not_0, d::fused_activation};
inline constexpr std::array<kernel_decline, 7> dense_i8{d::weights_offset_not_0, d::fused_activation};
inline constexpr std::array<kernel_decline, 7> depthwise_i8{d::rank_not_4, d::weights_offset_not_0, d::fused_activation};
inline constexpr std::array<kernel_decline, 7> tconv{d::groups_not_1, d::rank_not_4, d::in_place, d::fused_activation, d::dilated};
}  // namespace decline_detail

// The Armv7E-M DSP family (kernel/arm/i8.hpp's select: conv.hpp, depthwise.hpp, depthwise_multiplier.hpp, pool.hpp,
// add.hpp, broadcast.hpp, s16.hpp, transpose_conv.hpp, svdf.hpp, sequence_lstm.hpp, onnx_conv.hpp, onnx_add.hpp, softmax.hpp,
// lookup.hpp, copy.hpp, resize.hpp).
inline constexpr fast_kernel_rule dsp_rules[] = {
    {op_kind::conv2d, dtype::i8, decline_detail::rq::tflite, decline_detail::conv_i8},
    {op_kind::dense, dtype::i8, decline_detail::rq::tflite, decline_detail::dense_i8},
    {op_kind::depthwise_conv2d, dtype::i8, decline_detail::rq::tflite, decline_detail::depthwise_i8},
    {op_kind::avg_pool, dtype::i8, decline_detail::rq::tflite, {kernel_decline::rank_not_4, kernel_decline::window_over_256}},
    {op_kind::global_avg_pool, dtype::i8, decline_detail::rq::tflite, {kernel_decline::rank_not_4, kernel_decline::window_over_256}},
    {op_kind::add, dtype::i8, decline_detail::rq::tflite, {kernel_decline::add_shift_out_of_range, kernel_decline::fused_activation}},
    {op_kind::sub, dtype::i8, decline_detail::rq::tflite, {kernel_decline::add_shift_out_of_range, kernel_decline::fused_activation}},
    {op_kind::squared_difference, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::add_shift_out_of_range, kernel_decline::fused_activation}},
    {op_kind::mul, dtype::i8, decline_detail::rq::tflite, {kernel_decline::fused_activation}},
    {op_kind::maximum, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::minimum, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::prelu, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::transpose_conv2d, dtype::i8, decline_detail::rq::tflite, decline_detail::tconv},
    {op_kind::transpose_conv2d, dtype::i16, decline_detail::rq::tflite,
     {kernel_decline::int16_offset_not_0, kernel_decline::groups_not_1, kernel_decline::rank_not_4, kernel_decline::in_place,
      kernel_decline::fused_activation, kernel_decline::dilated}},
    {op_kind::conv2d, dtype::i16, decline_detail::rq::tflite,
     {kernel_decline::int16_offset_not_0, kernel_decline::weights_offset_not_0, kernel_decline::fused_activation,
      kernel_decline::groups_not_1, kernel_decline::rank_not_4}},
    {op_kind::dense, dtype::i16, decline_detail::rq::tflite,
     {kernel_decline::int16_offset_not_0, kernel_decline::weights_offset_not_0, kernel_decline::fused_activation}},
    {op_kind::depthwise_conv2d, dtype::i16, decline_detail::rq::tflite,
     {kernel_decline::int16_offset_not_0, kernel_decline::weights_offset_not_0, kernel_decline::fused_activation,
      kernel_decline::depthwise_multiplier_not_1, kernel_decline::rank_not_4, kernel_decline::window_over_511}},
    {op_kind::svdf, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::svdf_state_type, kernel_decline::in_place, kernel_decline::width_over_256}},
    {op_kind::sequence_lstm, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::lstm_form, kernel_decline::in_place, kernel_decline::width_over_256}},
    // softmax.hpp, lookup.hpp (LOGISTIC, TANH, QUANTIZE int8 -> int8 / uint8: a table of the call's 256
    // outputs), copy.hpp (a reshape that copies); their finer conditions are the compiler's (other_shape).
    {op_kind::softmax, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::softmax, dtype::i8, decline_detail::rq::onnx, {}},
    {op_kind::sigmoid, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::tanh, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::quantize, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::quantize, dtype::u8, decline_detail::rq::tflite, {}},
    {op_kind::reshape, dtype::i8, decline_detail::rq::tflite, {kernel_decline::in_place}},
    {op_kind::reshape, dtype::i8, decline_detail::rq::onnx, {kernel_decline::in_place}},
    // ONNX's QLinearConv / QLinearMatMul (kernel/arm/onnx_conv.hpp): the int8 conv and depthwise kernels on the
    // restated call; their conditions are the compiler's (other_shape where one fails).
    {op_kind::conv2d, dtype::i8, decline_detail::rq::onnx, {}},
    {op_kind::conv2d, dtype::u8, decline_detail::rq::onnx, {}},
    {op_kind::dense, dtype::i8, decline_detail::rq::onnx, {}},
    {op_kind::dense, dtype::u8, decline_detail::rq::onnx, {}},
    // ONNX's QLinearAdd (kernel/arm/onnx_add.hpp, on the FPU): equal shapes (a broadcast one runs the reference kernel).
    {op_kind::add, dtype::i8, decline_detail::rq::onnx, {}},
    {op_kind::add, dtype::u8, decline_detail::rq::onnx, {}},
    // resize.hpp: nearest neighbour (a byte move: TFLite's and ONNX's Resize, int8 and uint8; a move keeps the tflite recipe) and TFLite's int8 bilinear, rank 4;
    // their finer conditions (tf_crop_and_resize, neighbours TFLM reads outside the input) are the compiler's.
    {op_kind::resize_nearest, dtype::i8, decline_detail::rq::tflite, {kernel_decline::rank_not_4, kernel_decline::in_place}},
    {op_kind::resize_nearest, dtype::u8, decline_detail::rq::tflite, {kernel_decline::rank_not_4, kernel_decline::in_place}},
    {op_kind::resize_linear, dtype::i8, decline_detail::rq::tflite, {kernel_decline::rank_not_4, kernel_decline::in_place}},
};

namespace decline_detail {
// The conv2d and dense rows of the two families that gather a window of at most 1024 bytes (MVE, Armv6-M).
inline constexpr fast_kernel_rule gathered_conv_rule{
    op_kind::conv2d, dtype::i8, rq::tflite,
    {kernel_decline::groups_not_1, kernel_decline::rank_not_4, kernel_decline::weights_offset_not_0,
     kernel_decline::fused_activation, kernel_decline::window_over_1024_bytes}};
inline constexpr fast_kernel_rule gathered_dense_rule{
    op_kind::dense, dtype::i8, rq::tflite,
    {kernel_decline::weights_offset_not_0, kernel_decline::fused_activation, kernel_decline::window_over_1024_bytes}};
}  // namespace decline_detail

// The Armv8.1-M MVE family's own kernels (kernel/arm/mve/i8.hpp: conv.hpp, depthwise.hpp, add.hpp, pool.hpp, mul.hpp,
// softmax.hpp, lookup.hpp, onnx_conv.hpp, onnx_add.hpp); the calls they decline go to the DSP family (dsp_rules).
inline constexpr fast_kernel_rule mve_rules[] = {
    decline_detail::gathered_conv_rule,
    decline_detail::gathered_dense_rule,
    {op_kind::depthwise_conv2d, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::rank_not_4, kernel_decline::taps_over_255, kernel_decline::weights_offset_not_0,
      kernel_decline::fused_activation}},
    {op_kind::add, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::broadcast, kernel_decline::add_shift_out_of_range, kernel_decline::fused_activation,
      kernel_decline::elements_over_2_31}},
    {op_kind::avg_pool, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::rank_not_4, kernel_decline::in_place, kernel_decline::window_over_256}},
    {op_kind::global_avg_pool, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::rank_not_4, kernel_decline::in_place, kernel_decline::window_over_256}},
    {op_kind::max_pool, dtype::i8, decline_detail::rq::tflite, {kernel_decline::rank_not_4, kernel_decline::in_place}},
    // mul.hpp (any broadcast, as the DSP kernel), softmax.hpp (the DSP kernel's calls; its finer conditions are the
    // compiler's: other_shape).
    {op_kind::mul, dtype::i8, decline_detail::rq::tflite, {kernel_decline::fused_activation}},
    {op_kind::softmax, dtype::i8, decline_detail::rq::tflite, {}},
    // lookup.hpp (the DSP kernel's table, read by gather loads); its finer conditions are the compiler's.
    {op_kind::sigmoid, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::tanh, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::quantize, dtype::i8, decline_detail::rq::tflite, {}},
    {op_kind::quantize, dtype::u8, decline_detail::rq::tflite, {}},  // uint8 to int8
    // ONNX's QLinearConv / QLinearMatMul (mve/onnx_conv.hpp: the DSP family's restatement on the MVE conv and
    // depthwise kernels); its other conditions are the DSP rows' (other_shape where one fails).
    {op_kind::conv2d, dtype::i8, decline_detail::rq::onnx, {kernel_decline::window_over_1024_bytes, kernel_decline::taps_over_255}},
    {op_kind::conv2d, dtype::u8, decline_detail::rq::onnx, {kernel_decline::window_over_1024_bytes, kernel_decline::taps_over_255}},
    {op_kind::dense, dtype::i8, decline_detail::rq::onnx, {kernel_decline::window_over_1024_bytes}},
    {op_kind::dense, dtype::u8, decline_detail::rq::onnx, {kernel_decline::window_over_1024_bytes}},
    // ONNX's QLinearAdd (mve/onnx_add.hpp, on MVE-F's float lanes, which flush denormals): the DSP rows' calls
    // (equal shapes) whose scale ratios keep every term normal.
    {op_kind::add, dtype::i8, decline_detail::rq::onnx, {kernel_decline::scale_ratio_below_2_100}},
    {op_kind::add, dtype::u8, decline_detail::rq::onnx, {kernel_decline::scale_ratio_below_2_100}},
};

// The Armv6-M family (kernel/arm/v6m/i8.hpp: conv.hpp, depthwise.hpp, add.hpp), on targets without the DSP extension.
inline constexpr fast_kernel_rule v6m_rules[] = {
    decline_detail::gathered_conv_rule,
    decline_detail::gathered_dense_rule,
    {op_kind::depthwise_conv2d, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::rank_not_4, kernel_decline::depthwise_multiplier_not_1, kernel_decline::weights_offset_not_0,
      kernel_decline::fused_activation}},
    {op_kind::add, dtype::i8, decline_detail::rq::tflite,
     {kernel_decline::broadcast, kernel_decline::add_shift_out_of_range, kernel_decline::fused_activation}},
};

// Why the rows decline p: the first condition of p's row that p meets; element_type (requantization_not_tflite)
// when rows of p's op kind exist for other element types (recipes) only; no_kernel_for_op when none exists.
constexpr kernel_decline rules_decline(std::span<const fast_kernel_rule> rules, const kernel_params& p) {
  bool kind_listed = false, type_listed = false;
  for (const fast_kernel_rule& r : rules) {
    if (r.kind != p.kind) continue;
    kind_listed = true;
    if (r.type != p.type) continue;
    type_listed = true;
    if (r.requantization != p.requantization) continue;
    for (kernel_decline d : r.declines_when)
      if (d != kernel_decline::none && violates(d, p)) return d;
    return kernel_decline::none;
  }
  if (type_listed) return kernel_decline::requantization_not_tflite;
  return kind_listed ? kernel_decline::element_type : kernel_decline::no_kernel_for_op;
}
constexpr kernel_decline dsp_decline(const kernel_params& p) { return rules_decline(dsp_rules, p); }
constexpr kernel_decline mve_decline(const kernel_params& p) { return rules_decline(mve_rules, p); }
constexpr kernel_decline v6m_decline(const kernel_params& p) { return rules_decline(v6m_rules, p); }

// Which family runs call p on a Cortex-M target of instruction set isa (armv7em_dsp, armv81m_mve or armv6m),
// by the rows: arm_mve_i8 (its own kernel), arm_dsp_i8 (on an MVE target: the DSP kernel the MVE family falls
// back to; `mve` says why), arm_v6m_i8 (on an Armv6-M target), or reference (`reason` says why the target's
// family, DSP or Armv6-M, declines it).
struct cortex_m_verdict {
  kernel_impl runs = kernel_impl::reference;
  kernel_decline reason = kernel_decline::none;  // the DSP family's reason where the reference runs
  kernel_decline mve = kernel_decline::none;     // the MVE family's own reason on an MVE target
};
constexpr cortex_m_verdict verdict_on(const kernel_params& p, instruction_set isa) {
  if (isa == instruction_set::armv6m) {
    const kernel_decline own = v6m_decline(p);
    return own == kernel_decline::none ? cortex_m_verdict{kernel_impl::arm_v6m_i8, kernel_decline::none, kernel_decline::none}
                                       : cortex_m_verdict{kernel_impl::reference, own, kernel_decline::none};
  }
  const kernel_decline dsp = dsp_decline(p);
  if (isa == instruction_set::armv81m_mve) {
    const kernel_decline own = mve_decline(p);
    if (own == kernel_decline::none) return {kernel_impl::arm_mve_i8, kernel_decline::none, kernel_decline::none};
    return dsp == kernel_decline::none ? cortex_m_verdict{kernel_impl::arm_dsp_i8, kernel_decline::none, own}
                                       : cortex_m_verdict{kernel_impl::reference, dsp, own};
  }
  return dsp == kernel_decline::none ? cortex_m_verdict{kernel_impl::arm_dsp_i8, kernel_decline::none, kernel_decline::none}
                                     : cortex_m_verdict{kernel_impl::reference, dsp, kernel_decline::none};
}

}  // namespace ctnn::kernel::arm
