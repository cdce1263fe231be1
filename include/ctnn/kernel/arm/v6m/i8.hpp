#pragma once
// Armv6-M int8 kernels (Cortex-M0/M0+; also Cortex-M3, Armv7-M without the DSP extension): the family
// pass::select_kernels asks on instruction_set::armv6m (kernel_impl::arm_v6m_i8), bit-exact with the
// reference int8 kernels, in plain C++ that compiles to Thumb-1 (MULS, no multiply-accumulate, no 64-bit
// product: v6m/requantize.hpp). Same interface as arm::i8_kernel (kernel/arm/i8.hpp):
//   conv2d (groups 1) and dense: conv.hpp; depthwise_conv2d (multiplier 1): depthwise.hpp; add (equal shapes): add.hpp
// Other calls run the reference kernels. With CTNN_ARM_REFERENCE_KERNELS defined every `supports` is false.
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/decline.hpp>
#include <ctnn/kernel/arm/v6m/add.hpp>
#include <ctnn/kernel/arm/v6m/conv.hpp>
#include <ctnn/kernel/arm/v6m/depthwise.hpp>
#include <ctnn/kernel/detail/supported_or.hpp>

namespace ctnn::kernel::arm::v6m {

#if defined(CTNN_ARM_REFERENCE_KERNELS)
inline constexpr bool family_available = false;
#else
inline constexpr bool family_available = true;
#endif

namespace i8_detail {

using unsupported = kernel::detail::unsupported_i8;

template <kernel_params P>
constexpr auto select() {
  if constexpr (!family_available || P.type != dtype::i8 || P.requantization != requantization_policy::tflite) {
    return unsupported{};
  } else if constexpr (P.kind == op_kind::conv2d || P.kind == op_kind::dense) {
    return kernel::detail::supported_or<conv_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::depthwise_conv2d) {
    return kernel::detail::supported_or<depthwise_kernel<P>, unsupported>();
  } else if constexpr (P.kind == op_kind::add) {
    return kernel::detail::supported_or<add_kernel<P>, unsupported>();
  } else {
    return unsupported{};
  }
}

}  // namespace i8_detail

// runs: arm_v6m_i8 where a kernel of the family supports P, else reference; declined: why (the first condition
// of P's row in v6m_rules, kernel/arm/decline.hpp, that P meets; other_shape for a finer condition of the kernel's).
template <kernel_params P>
struct i8_kernel : decltype(i8_detail::select<P>()) {
  static constexpr kernel_impl runs = decltype(i8_detail::select<P>())::supports ? kernel_impl::arm_v6m_i8 : kernel_impl::reference;
  static constexpr kernel_decline declined = decltype(i8_detail::select<P>())::supports ? kernel_decline::none
                                             : !family_available                        ? kernel_decline::family_not_compiled
                                             : v6m_decline(P) != kernel_decline::none   ? v6m_decline(P)
                                                                                        : kernel_decline::other_shape;
};

}  // namespace ctnn::kernel::arm::v6m
