#pragma once
// Vectorised int8 kernels (AVX-512 VNNI / AVX2 / SSE4.1, the best level -march allows) for the host,
// bit-exact with the reference int8 kernels; kernel::invoke calls them at run time for the calls they
// support and falls back to the reference:
//   conv2d (groups 1) and dense: a blocked GEMM on compile-time interleaved weights (i8/gemm.hpp), and their
//   TFLite 16x8 forms (int16 data) on the same walk with int16 pairs (i8/gemm16.hpp);
//   depthwise_conv2d (depth multiplier 1; int8 and 16x8), add (equal shapes), avg_pool / global_avg_pool;
//   softmax with its exponentials tabulated at compile time (i8/softmax.hpp, scalar);
//   ONNX's integer conv2d and dense (QLinearConv, QLinearMatMul; int8 or uint8 activations) on the
//   same GEMM and depthwise kernels with ONNX's output stage (i8/onnx_conv.hpp, i8/output_stage.hpp), and
//   ONNX's QuantizeLinear per tensor (i8/onnx_quantize.hpp) and integer global average pool
//   (QLinearGlobalAveragePool, i8/onnx_pool.hpp); 8-bit NHWC <-> NCHW transposes (int8 or uint8, i8/transpose.hpp).
// Without a SIMD level (arm-none-eabi, plain x86-64) every `supports` is false.
#include <cstddef>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/supported_or.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/depthwise.hpp>
#include <ctnn/kernel/simd/i8/elementwise.hpp>
#include <ctnn/kernel/simd/i8/gemm.hpp>
#include <ctnn/kernel/simd/i8/gemm16.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/onnx_conv.hpp>
#include <ctnn/kernel/simd/i8/onnx_pool.hpp>
#include <ctnn/kernel/simd/i8/onnx_quantize.hpp>
#include <ctnn/kernel/simd/i8/softmax.hpp>
#include <ctnn/kernel/simd/i8/transpose.hpp>

namespace ctnn::kernel::simd {

namespace i8_detail {

using unsupported = kernel::detail::unsupported_i8;

template <kernel_params P, class I = isa>
constexpr auto select() {
  if constexpr (!I::available) {
    return unsupported{};
  } else if constexpr (P.kind == op_kind::transpose && (P.type == dtype::i8 || P.type == dtype::u8)) {
    return kernel::detail::supported_or<transpose_kernel<P, I>, unsupported>();  // a byte move: any policy
  } else if constexpr (P.requantization == requantization_policy::onnx) {
    if constexpr (P.kind == op_kind::conv2d || P.kind == op_kind::dense)
      return kernel::detail::supported_or<onnx_conv_kernel<P, I>, unsupported>();
    else if constexpr (P.kind == op_kind::quantize)
      return kernel::detail::supported_or<onnx_quantize_kernel<P, I>, unsupported>();
    else if constexpr (P.kind == op_kind::global_avg_pool)
      return kernel::detail::supported_or<onnx_global_pool_kernel<P, I>, unsupported>();
    else return unsupported{};
  } else if constexpr (P.type == dtype::i16 && (P.kind == op_kind::conv2d || P.kind == op_kind::dense)) {
    return kernel::detail::supported_or<gemm16_kernel<P, I>, unsupported>();
  } else if constexpr (P.type == dtype::i16 && P.kind == op_kind::depthwise_conv2d) {
    return kernel::detail::supported_or<depthwise_kernel<P, I>, unsupported>();
  } else if constexpr (P.type != dtype::i8) {
    return unsupported{};
  } else if constexpr (P.kind == op_kind::conv2d || P.kind == op_kind::dense) {
    return kernel::detail::supported_or<gemm_kernel<P, I>, unsupported>();
  } else if constexpr (P.kind == op_kind::depthwise_conv2d) {
    return kernel::detail::supported_or<depthwise_kernel<P, I>, unsupported>();
  } else if constexpr (P.kind == op_kind::add) {
    return kernel::detail::supported_or<add_kernel<P, I>, unsupported>();
  } else if constexpr (P.kind == op_kind::avg_pool || P.kind == op_kind::global_avg_pool) {
    return kernel::detail::supported_or<avg_pool_kernel<P, I>, unsupported>();
  } else if constexpr (P.kind == op_kind::softmax) {
    return kernel::detail::supported_or<softmax_kernel<P, I>, unsupported>();
  } else {
    return unsupported{};
  }
}

}  // namespace i8_detail

// supports: whether run() handles a call with these parameters. run: operands as in kernel::invoke.
// packs(k): whether operand k (a constant) is passed re-laid out by pack<k>(read) (kernel/kernel_family.hpp).
template <kernel_params P>
struct i8_kernel : decltype(i8_detail::select<P>()) {};

}  // namespace ctnn::kernel::simd
