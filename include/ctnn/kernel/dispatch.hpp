#pragma once
// Chooses the kernel for a call's compile-time parameters. Operands arrive in the op's input order
// (conv/dense: data, weights, bias). kernel_params::type is the element type of the op's first input:
// f32 runs the float kernels (quantize from f32 writes int8), i8 the int8 kernels (TFLite semantics;
// dequantize writes f32), whose per-channel multipliers come in a requant_arrays.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/batch_norm.hpp>
#include <ctnn/kernel/reference/conv2d.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/dense.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/kernel/reference/int8/conv2d.hpp>
#include <ctnn/kernel/reference/int8/data_movement.hpp>
#include <ctnn/kernel/reference/int8/dense.hpp>
#include <ctnn/kernel/reference/int8/elementwise.hpp>
#include <ctnn/kernel/reference/int8/mean.hpp>
#include <ctnn/kernel/reference/int8/pool.hpp>
#include <ctnn/kernel/reference/int8/quantize.hpp>
#include <ctnn/kernel/reference/int8/softmax.hpp>
#include <ctnn/kernel/reference/pool.hpp>
#include <ctnn/kernel/reference/reduce.hpp>
#include <ctnn/kernel/simd/f32.hpp>
#include <ctnn/kernel/simd/i8.hpp>

namespace ctnn::kernel {

// The float32 kernels, with typed operands: also run by the compiler (fold_constants).
template <kernel_params P>
constexpr void invoke_f32(const float* const* operands, float* result) {
  namespace ref = reference;
  constexpr long elements = static_cast<long>(P.out.elements());
  if constexpr (P.kind == op_kind::conv2d) ref::conv2d<P>(operands[0], operands[1], operands[2], result);
  else if constexpr (P.kind == op_kind::depthwise_conv2d) ref::depthwise_conv2d<P>(operands[0], operands[1], operands[2], result);
  else if constexpr (P.kind == op_kind::dense) ref::dense<P>(operands[0], operands[1], operands[2], result);
  else if constexpr (P.kind == op_kind::max_pool) ref::pool2d<P, true>(operands[0], result);
  else if constexpr (P.kind == op_kind::avg_pool) ref::pool2d<P, false>(operands[0], result);
  else if constexpr (P.kind == op_kind::global_avg_pool) ref::global_avg_pool<P>(operands[0], result);
  else if constexpr (P.kind == op_kind::add || P.kind == op_kind::mul) ref::binary<P>(operands[0], operands[1], result);
  else if constexpr (P.kind == op_kind::relu) ref::activate_all<activation::relu, elements>(operands[0], result);
  else if constexpr (P.kind == op_kind::relu6) ref::activate_all<activation::relu6, elements>(operands[0], result);
  else if constexpr (P.kind == op_kind::sigmoid) ref::activate_all<activation::sigmoid, elements>(operands[0], result);
  else if constexpr (P.kind == op_kind::tanh) ref::activate_all<activation::tanh, elements>(operands[0], result);
  else if constexpr (P.kind == op_kind::softmax) ref::softmax<P>(operands[0], result);
  else if constexpr (P.kind == op_kind::reshape) ref::reshape<P>(operands[0], result);
  else if constexpr (P.kind == op_kind::concat) ref::concat<P>(operands, result);
  else if constexpr (P.kind == op_kind::pad) ref::pad<P>(operands[0], result);
  else if constexpr (P.kind == op_kind::batch_norm)
    ref::batch_norm<P>(operands[0], operands[1], operands[2], operands[3], operands[4], result);
  else if constexpr (P.kind == op_kind::mean) ref::mean<P>(operands[0], result);
  else static_assert(P.kind == op_kind::conv2d, "ctnn: no float32 kernel for this op kind (add it to kernel/dispatch.hpp).");
}

// The int8 kernels (TFLite's integer recipes). Activations are int8, weights int8, biases int32; `rq`
// holds what kernel_params cannot (per-channel multipliers, per-input concat rescaling).
template <kernel_params P, std::size_t N>
void invoke_i8(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
  namespace i8 = reference::int8;
  const auto activation = [&](std::size_t k) { return static_cast<const std::int8_t*>(operands[k]); };
  const auto bias = [&] { return N > 2 ? static_cast<const std::int32_t*>(operands[N > 2 ? 2 : 0]) : nullptr; };
  auto* out = static_cast<std::int8_t*>(result);
  if constexpr (P.kind == op_kind::conv2d) i8::conv2d<P>(activation(0), activation(1), bias(), out, rq.multiplier, rq.shift);
  else if constexpr (P.kind == op_kind::depthwise_conv2d)
    i8::depthwise_conv2d<P>(activation(0), activation(1), bias(), out, rq.multiplier, rq.shift);
  else if constexpr (P.kind == op_kind::dense) i8::dense<P>(activation(0), activation(1), bias(), out, rq.multiplier, rq.shift);
  else if constexpr (P.kind == op_kind::max_pool) i8::pool2d<P, true>(activation(0), out);
  else if constexpr (P.kind == op_kind::avg_pool) i8::pool2d<P, false>(activation(0), out);
  else if constexpr (P.kind == op_kind::global_avg_pool) i8::global_avg_pool<P>(activation(0), out);
  else if constexpr (P.kind == op_kind::add || P.kind == op_kind::mul) i8::binary<P>(activation(0), activation(1), out);
  else if constexpr (P.kind == op_kind::relu) i8::relu<P>(activation(0), out);
  else if constexpr (P.kind == op_kind::relu6) i8::relu6<P>(activation(0), out);
  else if constexpr (P.kind == op_kind::sigmoid) i8::logistic_or_tanh<P, true>(activation(0), out);
  else if constexpr (P.kind == op_kind::tanh) i8::logistic_or_tanh<P, false>(activation(0), out);
  else if constexpr (P.kind == op_kind::softmax) i8::softmax<P>(activation(0), out);
  else if constexpr (P.kind == op_kind::reshape) i8::copy<P>(activation(0), out);
  else if constexpr (P.kind == op_kind::concat) {
    const std::int8_t* inputs[N]{};
    for (std::size_t k = 0; k < N; ++k) inputs[k] = activation(k);
    i8::concat<P>(inputs, out, rq.requantize, rq.scale, rq.bias);
  } else if constexpr (P.kind == op_kind::pad) i8::pad<P>(activation(0), out, static_cast<std::int8_t>(P.output_offset));
  else if constexpr (P.kind == op_kind::quantize) {
    static_assert(P.axis == static_cast<std::int32_t>(dtype::i8), "ctnn: int8 QUANTIZE writes int8 only.");
    i8::requantize<P>(activation(0), out);
  } else if constexpr (P.kind == op_kind::dequantize) {
    static_assert(P.axis == static_cast<std::int32_t>(dtype::f32), "ctnn: DEQUANTIZE writes float32 only.");
    i8::dequantize<P>(activation(0), static_cast<float*>(result));
  } else if constexpr (P.kind == op_kind::mean) i8::mean<P>(activation(0), out);
  else static_assert(P.kind == op_kind::conv2d, "ctnn: no int8 kernel for this op kind (add it to kernel/dispatch.hpp).");
}

// Whether a kernel exists for an op kind with this (first input's) element type; lower_te asks before
// lowering. float32: every op kind but dequantize (whose input is quantized); int8: every op kind but
// batch_norm (folded, or not quantized in TFLite).
constexpr bool has_kernel(op_kind kind, dtype type) {
  if (type == dtype::f32) return kind != op_kind::dequantize;
  if (type == dtype::i8) return kind != op_kind::batch_norm;
  return false;
}

// Whether the run-time kernel for P reads operand K (a constant: weights, bias) in a layout of its own,
// made at compile time by pack_operand (the executor then passes packed_operand_v instead of the stored
// constant; runtime/packed_operands.hpp).
template <kernel_params P>
constexpr bool packs_operand(std::size_t k) {
  if constexpr (P.type == dtype::f32 && P.kind != op_kind::quantize && simd::f32_kernel<P>::supports)
    return simd::f32_kernel<P>::packs(k);
  else if constexpr (P.type == dtype::i8 && simd::i8_kernel<P>::supports)
    return simd::i8_kernel<P>::packs(k);
  else
    return false;
}

// Operand K re-laid out for the run-time kernel of P: `read` gives the stored constant's elements
// (read.f32(i), read.i8(i), read.i32(i), read.count()); returns an array (in .rodata once materialised).
template <kernel_params P, std::size_t K, class Reader>
constexpr auto pack_operand(const Reader& read) {
  if constexpr (P.type == dtype::f32) return simd::f32_kernel<P>::template pack<K>(read);
  else return simd::i8_kernel<P>::template pack<K>(read);
}

// The executor's entry: operands as untyped addresses (activations, weights and biases of a quantized
// op have different element types), cast here to what the kernel for P.type takes. `rq`: the call's
// per-channel requantization arrays (runtime/requantization.hpp), empty for calls that need none.
template <kernel_params P, std::size_t N>
void invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq = {}) {
  if constexpr (P.type == dtype::f32 && P.kind == op_kind::quantize) {
    static_assert(P.axis == static_cast<std::int32_t>(dtype::i8), "ctnn: QUANTIZE from float32 writes int8 only.");
    reference::int8::quantize<P>(static_cast<const float*>(operands[0]), static_cast<std::int8_t*>(result));
  } else if constexpr (P.type == dtype::f32) {
    const float* typed[N]{};
    for (std::size_t k = 0; k < N; ++k) typed[k] = static_cast<const float*>(operands[k]);
    if constexpr (simd::f32_kernel<P>::supports) simd::f32_kernel<P>::run(typed, static_cast<float*>(result));
    else invoke_f32<P>(typed, static_cast<float*>(result));
  } else if constexpr (P.type == dtype::i8) {
    if constexpr (simd::i8_kernel<P>::supports) simd::i8_kernel<P>::run(operands, result, rq);
    else invoke_i8<P>(operands, result, rq);
  } else {
    static_assert(P.type == dtype::f32, "ctnn: no kernel for this element type (kernel/dispatch.hpp).");
  }
}

}  // namespace ctnn::kernel
