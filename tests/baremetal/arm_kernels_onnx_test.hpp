// What the ONNX integer kernel programs (arm_kernels_onnx.cpp: convolutions and dense; arm_kernels_onnx_add.cpp:
// QLinearAdd) share: zero points drawn for 8-bit types, the operand buffers and the family under test. Two programs
// because one would pass the Cortex-M55's 512 KB ITCM.
#pragma once

#include "arm_kernels_test.hpp"

#include <ctnn/kernel/arm/mve/i8.hpp>
#include <ctnn/kernel/arm/onnx_conv.hpp>
#include <ctnn/kernel/arm/mve/onnx_conv.hpp>

namespace arm_kernels_onnx_test {

namespace t = arm_kernels_test;
using ctnn::dtype;
using ctnn::op_kind;

constexpr std::int32_t zero_point_of(dtype type, t::random& r) {
  return type == dtype::u8 ? (r.in(0, 3) == 0 ? 128 : r.in(0, 255)) : r.zero_point();
}

inline constexpr std::size_t max_bytes = 2 * 8 * 8 * 40;
inline std::uint8_t input[max_bytes], scratch[max_bytes], expected[max_bytes], actual[max_bytes], arena[3 * max_bytes];

// The family under test: MVE's where the target has it, else the DSP one.
#if CTNN_ARM_MVE
template <ctnn::kernel_params P>
using family_kernel = ctnn::kernel::arm::mve::detail::onnx_conv_kernel<P>;
inline constexpr bool family_compiled = ctnn::kernel::arm::mve::detail::mve_onnx_available;
inline constexpr ctnn::kernel_impl family_impl = ctnn::kernel_impl::arm_mve_i8;
#else
template <ctnn::kernel_params P>
using family_kernel = ctnn::kernel::arm::detail::onnx_conv_kernel<P>;
inline constexpr bool family_compiled = ctnn::kernel::arm::detail::dsp_available;
inline constexpr ctnn::kernel_impl family_impl = ctnn::kernel_impl::arm_dsp_i8;
#endif

}  // namespace arm_kernels_onnx_test
