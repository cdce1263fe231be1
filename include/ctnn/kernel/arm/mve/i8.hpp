#pragma once
// Armv8.1-M MVE (Helium) int8 kernels (Cortex-M55/M85: __ARM_FEATURE_MVE), bit-exact with the reference int8
// kernels: the family pass::select_kernels asks on instruction_set::armv81m_mve (kernel_impl::arm_mve_i8).
// Same interface as arm::i8_kernel (kernel/arm/i8.hpp). Where no MVE kernel applies, the call's Armv7E-M
// DSP kernel (those cores have the DSP extension too), and where none of those either, `supports` is false
// (the reference kernel). Without MVE, or with CTNN_ARM_REFERENCE_KERNELS, the DSP family's answer (false
// without the DSP extension).
//   conv2d (groups 1) and dense: conv.hpp; depthwise_conv2d (any multiplier and channel count):
//   depthwise.hpp; add (equal shapes): add.hpp; avg_pool, global_avg_pool, max_pool: pool.hpp; mul (any
//   broadcast): mul.hpp; softmax: softmax.hpp; ONNX's integer conv2d (groups 1 or depthwise) and dense
//   (requantization onnx): onnx_conv.hpp; ONNX's QLinearAdd (equal shapes, MVE-F): onnx_add.hpp; sigmoid, tanh
//   and quantize (int8 to int8 or uint8, uint8 to int8): lookup.hpp
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/i8.hpp>
#include <ctnn/kernel/arm/mve/add.hpp>
#include <ctnn/kernel/arm/mve/conv.hpp>
#include <ctnn/kernel/arm/mve/depthwise.hpp>
#include <ctnn/kernel/arm/mve/lookup.hpp>
#include <ctnn/kernel/arm/mve/mul.hpp>
#include <ctnn/kernel/arm/mve/onnx_add.hpp>
#include <ctnn/kernel/arm/mve/onnx_conv.hpp>
#include <ctnn/kernel/arm/mve/pool.hpp>
#include <ctnn/kernel/arm/mve/softmax.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>

namespace ctnn::kernel::arm::mve {

namespace i8_detail {

template <kernel_params P>
constexpr auto select() {
  if constexpr (detail::mve_available && P.requantization == requantization_policy::onnx && (P.kind == op_kind::conv2d || P.kind == op_kind::dense)) {
    return kernel::detail::supported_or<detail::onnx_conv_kernel<P>, arm::i8_kernel<P>>();  // onnx_conv.hpp
  } else if constexpr (detail::mve_available && P.requantization == requantization_policy::onnx && P.kind == op_kind::add) {
    return kernel::detail::supported_or<detail::onnx_add_kernel<P>, arm::i8_kernel<P>>();  // onnx_add.hpp (MVE-F)
  } else if constexpr (detail::mve_available && (P.kind == op_kind::quantize || P.kind == op_kind::sigmoid || P.kind == op_kind::tanh)) {
    return kernel::detail::supported_or<detail::lookup_kernel<P>, arm::i8_kernel<P>>();  // lookup.hpp (int8 or uint8 input)
  } else if constexpr (!detail::mve_available || P.type != dtype::i8 || P.requantization != requantization_policy::tflite) {
    return arm::i8_kernel<P>{};
  } else if constexpr (P.kind == op_kind::conv2d || P.kind == op_kind::dense) {
    return kernel::detail::supported_or<detail::conv_kernel<P>, arm::i8_kernel<P>>();
  } else if constexpr (P.kind == op_kind::depthwise_conv2d) {
    return kernel::detail::supported_or<detail::depthwise_kernel<P>, arm::i8_kernel<P>>();
  } else if constexpr (P.kind == op_kind::add) {
    return kernel::detail::supported_or<detail::add_kernel<P>, arm::i8_kernel<P>>();
  } else if constexpr (P.kind == op_kind::avg_pool || P.kind == op_kind::global_avg_pool || P.kind == op_kind::max_pool) {
    return kernel::detail::supported_or<detail::pool_kernel<P>, arm::i8_kernel<P>>();
  } else if constexpr (P.kind == op_kind::mul) {
    return kernel::detail::supported_or<detail::mul_kernel<P>, arm::i8_kernel<P>>();
  } else if constexpr (P.kind == op_kind::softmax) {
    return kernel::detail::supported_or<detail::softmax_kernel<P>, arm::i8_kernel<P>>();
  } else {
    return arm::i8_kernel<P>{};
  }
}

}  // namespace i8_detail

// runs: the family whose kernel runs P (arm_mve_i8: an MVE kernel; arm_dsp_i8: the DSP one; reference).
// declined: why the family leaves P to the reference kernel (none where its own kernel or the DSP one runs P):
// the DSP family's reason (arm::i8_kernel<P>::declined).
template <kernel_params P>
struct i8_kernel : decltype(i8_detail::select<P>()) {
  static constexpr kernel_impl runs = std::is_base_of_v<arm::i8_kernel<P>, decltype(i8_detail::select<P>())>
                                          ? arm::i8_kernel<P>::runs
                                          : kernel_impl::arm_mve_i8;  // select gives an MVE kernel only where it supports P
  static constexpr kernel_decline declined =
      decltype(i8_detail::select<P>())::supports ? kernel_decline::none : arm::i8_kernel<P>::declined;
};

}  // namespace ctnn::kernel::arm::mve
