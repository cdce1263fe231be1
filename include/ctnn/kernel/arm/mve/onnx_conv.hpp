#pragma once
// ONNX's integer conv2d and dense (kernel_params::requantization == onnx: QLinearConv, QLinearMatMul and the
// QDQ groups lowered to them) on the MVE int8 kernels (conv.hpp, depthwise.hpp), bit-exact with
// kernel::reference::onnx_quant. The DSP family's wrapper (kernel/arm/onnx_conv.hpp: the call restated as an
// int8 call in ctnn's layouts, the weights, bias and per-channel multipliers re-laid out at compile time, a
// uint8 input made int8 in the call's scratch or in place, a uint8 result flipped back) around the MVE
// kernels, which run ONNX's output stage (onnx_output.hpp) in place of TFLite's. Where the MVE kernel
// declines the restated call, the DSP wrapper runs it (kernel/arm/mve/i8.hpp).
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/mve/conv.hpp>
#include <ctnn/kernel/arm/mve/depthwise.hpp>
#include <ctnn/kernel/arm/onnx_conv.hpp>

namespace ctnn::kernel::arm::mve::detail {

template <kernel_params Q>
struct mve_int8_kernels {
  using conv = detail::conv_kernel<Q>;  // also dense
  using depthwise = detail::depthwise_kernel<Q>;
};

template <kernel_params P>
using onnx_conv_kernel = arm::detail::onnx_conv_kernel<P, mve_int8_kernels>;

}  // namespace ctnn::kernel::arm::mve::detail
