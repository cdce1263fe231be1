#pragma once
// Armv7E-M DSP int8 kernels (Cortex-M4/M7/M33/M55: __ARM_FEATURE_DSP), and the 16x8 ones (int16 data: s16.hpp),
// bit-exact with the reference kernels. Same interface as simd::i8_kernel (kernel/simd/i8.hpp):
//   supports            whether run() handles a call with parameters P (including calls that plan_memory
//                       runs in place, kernel_params::in_place, when the kernel's order of writes allows it)
//   packs(k), pack<K>   whether constant operand k is passed re-laid out, and the compile-time re-layout
//   run(operands, result, rq)
// Without the DSP extension (host builds, Cortex-M0+/M3), or with CTNN_ARM_REFERENCE_KERNELS defined (to
// measure against the reference kernels), every `supports` is false.
#include <cstddef>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/add.hpp>
#include <ctnn/kernel/arm/broadcast.hpp>
#include <ctnn/kernel/arm/conv.hpp>
#include <ctnn/kernel/arm/copy.hpp>
#include <ctnn/kernel/arm/decline.hpp>
#include <ctnn/kernel/arm/depthwise.hpp>
#include <ctnn/kernel/arm/depthwise_multiplier.hpp>
#include <ctnn/kernel/arm/lookup.hpp>
#include <ctnn/kernel/arm/onnx_add.hpp>
#include <ctnn/kernel/arm/onnx_conv.hpp>
#include <ctnn/kernel/arm/pool.hpp>
#include <ctnn/kernel/arm/resize.hpp>
#include <ctnn/kernel/arm/s16.hpp>
#include <ctnn/kernel/arm/sequence_lstm.hpp>
#include <ctnn/kernel/arm/softmax.hpp>
#include <ctnn/kernel/arm/svdf.hpp>
#include <ctnn/kernel/arm/transpose_conv.hpp>
#include <ctnn/kernel/detail/supported_or.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm {

namespace i8_detail {

using unsupported = kernel::detail::unsupported_i8;

// The kernel for P, or `unsupported` (then the reference kernel runs the call):
//   conv2d (groups 1) and dense: conv.hpp; depthwise_conv2d (multiplier 1): depthwise.hpp, (multiplier >= 2): depthwise_multiplier.hpp;
//   avg_pool, global_avg_pool: pool.hpp; add (equal shapes): add.hpp; int16 conv2d, dense and depthwise_conv2d: s16.hpp;
//   transpose_conv2d (int8 and 16x8): transpose_conv.hpp; add (broadcast), sub, mul, squared_difference, maximum,
//   minimum, prelu: broadcast.hpp; svdf (int8, int16 or int8 state): svdf.hpp; sequence_lstm (TFLM's 8x8_16):
//   sequence_lstm.hpp; ONNX's integer conv2d and dense (requantization onnx): onnx_conv.hpp; ONNX's QLinearAdd (equal
//   shapes): onnx_add.hpp; softmax: softmax.hpp;
//   sigmoid (TFLite LOGISTIC), tanh and quantize (int8 to int8 or uint8, uint8 to int8): lookup.hpp; reshape (a copy): copy.hpp;
//   resize_nearest (int8 or uint8, TFLite's or ONNX's) and resize_linear (TFLite's int8 bilinear): resize.hpp.
template <kernel_params P>
constexpr auto select() {
  if constexpr (P.type == dtype::i16 && (P.kind == op_kind::conv2d || P.kind == op_kind::dense)) {
    return kernel::detail::supported_or<detail::conv_s16_kernel<P>, unsupported>();
  } else if constexpr (P.type == dtype::i16 && P.kind == op_kind::depthwise_conv2d) {
    return kernel::detail::supported_or<detail::depthwise_s16_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::transpose_conv2d && (P.type == dtype::i8 || P.type == dtype::i16)) {
    return kernel::detail::supported_or<detail::transpose_conv_kernel<P>, unsupported>();
  } else if constexpr (P.requantization == requantization_policy::onnx && (P.kind == op_kind::conv2d || P.kind == op_kind::dense)) {
    return kernel::detail::supported_or<detail::onnx_conv_kernel<P>, unsupported>();
  } else if constexpr (P.requantization == requantization_policy::onnx && P.kind == op_kind::add) {
    return kernel::detail::supported_or<detail::onnx_add_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::quantize && P.type == dtype::u8 && P.requantization == requantization_policy::tflite) {
    return kernel::detail::supported_or<detail::lookup_kernel<P>, unsupported>();  // uint8 -> int8
  } else if constexpr (P.kind == op_kind::resize_nearest) {
    return kernel::detail::supported_or<detail::resize_nearest_kernel<P>, unsupported>();  // a byte move: int8 or uint8
  } else if constexpr (P.kind == op_kind::resize_linear) {
    return kernel::detail::supported_or<detail::resize_bilinear_kernel<P>, unsupported>();
  } else if constexpr (!detail::dsp_available || P.type != dtype::i8 ||
                       P.requantization != requantization_policy::tflite) {
    return unsupported{};
  } else if constexpr (P.kind == op_kind::conv2d || P.kind == op_kind::dense) {
    return kernel::detail::supported_or<detail::conv_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::depthwise_conv2d) {
    using multiplier = decltype(kernel::detail::supported_or<detail::depthwise_multiplier_kernel<P>, unsupported>());
    return kernel::detail::supported_or<detail::depthwise_kernel<P>, multiplier>();
  } else if constexpr (P.kind == op_kind::avg_pool || P.kind == op_kind::global_avg_pool) {
    return kernel::detail::supported_or<detail::avg_pool_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::add) {
    using broadcast = decltype(kernel::detail::supported_or<detail::broadcast_binary_kernel<P>, unsupported>());
    return kernel::detail::supported_or<detail::add_kernel<P>, broadcast>();
  } else if constexpr (P.kind == op_kind::sub || P.kind == op_kind::mul || P.kind == op_kind::squared_difference ||
                       P.kind == op_kind::maximum || P.kind == op_kind::minimum || P.kind == op_kind::prelu) {
    return kernel::detail::supported_or<detail::broadcast_binary_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::svdf) {
    return kernel::detail::supported_or<detail::svdf_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::sequence_lstm) {
    return kernel::detail::supported_or<detail::sequence_lstm_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::softmax) {
    return kernel::detail::supported_or<detail::softmax_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::sigmoid || P.kind == op_kind::tanh || P.kind == op_kind::quantize) {
    return kernel::detail::supported_or<detail::lookup_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::reshape) {
    return kernel::detail::supported_or<detail::copy_kernel<P>, unsupported>();
  } else {
    return unsupported{};
  }
}

}  // namespace i8_detail

// runs: the family whose kernel runs P (arm_dsp_i8, or reference). declined: why the family leaves P to the
// reference kernel (none where it supports P): the first condition of P's row in dsp_rules
// (kernel/arm/decline.hpp) that P meets, other_shape where the kernel's own `supports` declines for a finer
// reason, family_not_compiled without the DSP extension.
template <kernel_params P>
struct i8_kernel : decltype(i8_detail::select<P>()) {
  static constexpr kernel_impl runs = decltype(i8_detail::select<P>())::supports ? kernel_impl::arm_dsp_i8 : kernel_impl::reference;
  static constexpr kernel_decline declined = decltype(i8_detail::select<P>())::supports ? kernel_decline::none
                                             : !detail::dsp_available                  ? kernel_decline::family_not_compiled
                                             : dsp_decline(P) != kernel_decline::none   ? dsp_decline(P)
                                                                                        : kernel_decline::other_shape;
};

}  // namespace ctnn::kernel::arm
