#pragma once
// The reference kernel of each op kind: the one source behind both specialisation policies (docs/design.md §4).
// Params is how the kernel reads its parameters (kernel/params.hpp): kernel::invoke<P> passes
// static_params<P>, a kernel of its own per layer with every parameter a constant ("full"); the shared
// kernels (kernel/dynamic.hpp) pass a `const kernel_params*`, one function per op kind and element type
// for every call ("shared").
//
// Operands come in the op's input order (conv/dense: data, weights, bias; concat: its inputs). The
// element type of the first input selects the kernels: f32 the float ones (quantize from f32 writes
// int8 or int16), the integer types the integer ones (TFLite's recipes; dequantize writes f32).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/activation.hpp>
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
#include <ctnn/kernel/reference/int8/requantize.hpp>
#include <ctnn/kernel/reference/int8/softmax.hpp>
#include <ctnn/kernel/onnx_integer.hpp>
#include <ctnn/kernel/reference/patch_copy.hpp>
#include <ctnn/kernel/reference/pool.hpp>
#include <ctnn/kernel/reference/reduce.hpp>
#include <ctnn/kernel/reference/transpose.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::kernel {

// Whether a kernel exists for an op kind with this (first input's) element type; lower_te asks before
// lowering. Its descriptor says it (its has_kernel); op_kind::none has none. ONNX's integer ops, and the
// plain integer arithmetic of ONNX models, have kernels of their own (kernel/onnx_integer.hpp).
constexpr bool has_kernel(op_kind kind, dtype type) {
  return ops::has_kernel(kind, type);
}

// What the kernels need of their parameters beyond an op kind with a kernel: a result element type the
// kernel writes (an op kind with a descriptor: its has_result_kernel; quantize, dequantize), and int8
// kernels fuse only activations they can apply as a clamp, and write softmax in TFLite's fixed output
// quantization. kernel::invoke<P> checks these at compile time
// (kernel_params_problem names the first one broken), kernel::invoke_dynamic at run time.
enum class params_problem : std::int32_t {
  none,
  no_kernel,                // no kernel for the op kind with this element type
  unsupported_result_type,  // the kernel does not write this result element type (quantize, dequantize)
  int8_fused_activation,    // an int8 kernel can fuse only relu or relu6
  int8_softmax_output,      // an int8 softmax's output must have zero point -128 (scale 1/256)
};

constexpr params_problem kernel_params_problem(const kernel_params& p) {
  if (p.requantization == requantization_policy::onnx)
    return onnx_integer::supports(p) ? params_problem::none : params_problem::no_kernel;
  if (!has_kernel(p.kind, p.type)) return params_problem::no_kernel;
  if (!ops::has_result_kernel(p.kind, p.type, p.out_type))
    return params_problem::unsupported_result_type;
  if (is_quantized_activation(p.type) && !reference::int8::fused_activation_is_a_clamp(p))
    return params_problem::int8_fused_activation;
  if (p.type == dtype::i8 && p.kind == op_kind::softmax && !reference::int8::softmax_output_is_supported(p))
    return params_problem::int8_softmax_output;
  return params_problem::none;
}

namespace detail {

// The float32 kernel of op kind K. Also run by the compiler (fold_constants), hence typed operands.
template <op_kind K, class Params>
[[gnu::always_inline]] constexpr void run_f32(Params p, const float* const* operands, float* result) {
  static_assert(ops::has_descriptor<K>, "ctnn: an op kind without a descriptor has no kernel (ops/registry.hpp).");
  ops::descriptor_of<K>::run_f32(p, operands, result);
}

// The integer kernel of op kind K (int8, int16, the plain integers and bools: the descriptor reads the
// element type from the parameters). `rq` holds what kernel_params cannot (per-channel multipliers,
// per-input concat rescaling).
template <op_kind K, class Params>
[[gnu::always_inline]] inline void run_i8(Params p, const void* const* operands, void* result, const requant_arrays& rq) {
  static_assert(ops::has_descriptor<K>, "ctnn: an op kind without a descriptor has no kernel (ops/registry.hpp).");
  ops::descriptor_of<K>::run_i8(p, operands, result, rq);
}

}  // namespace detail

}  // namespace ctnn::kernel
