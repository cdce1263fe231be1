#pragma once
// The kernels' Prepare step (as TFLite calls it), structural part: the compile-time parameters
// (kernel_params) of the call that computes a graph op: shapes, window, axes; the op kind's own fields are
// a copy of its attribute struct (op_attributes and kernel_params share them; for a kind with a
// descriptor, its `prepare`). The quantized fields
// (TFLite's or ONNX's integer recipes) are pass::compute_requantization's. pass::lower_te calls it for
// every op; kernel::module_runner for folded (float32) constants it evaluates.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/onnx_integer.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::kernel {

// Whether an op reads or writes int8 or int16 (its kernel then needs the tensors' quantization), or uint8
// under TFLite's semantics (a model's uint8 edges: QUANTIZE to and from int8, DEQUANTIZE; ONNX's uint8 ops
// have recipes of their own).
template <class Module>
constexpr bool is_quantized_op(const Module& m, const node& n) {
  const auto quantized = [&m](dtype t) {
    return is_quantized_activation(t) || (t == dtype::u8 && m.requantization == requantization_policy::tflite);
  };
  return quantized(m.tensor_at(n.inputs[0]).type) || quantized(m.tensor_at(n.output).type);
}

// An int8 or int16 op whose kernel cannot be prepared: a quantized operand without a scale, or a fused activation
// other than relu/relu6. Returns the tensor (or -2 for the activation) at fault, -1 if none.
template <class Module>
constexpr std::int32_t unpreparable_operand(const Module& m, const node& n) {
  if (!detail::is_output_clamp(n.attrs.fused)) return -2;
  const std::int32_t weights = ops::has_weights(n.kind) ? 1 : -1;
  for (std::int32_t k = 0; k < n.input_count; ++k) {
    const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
    if (k == weights && t >= 0 && m.tensor_at(t).type != dtype::i8) return t;  // int8 kernels read int8 weights only
    if (t < 0 || !is_quantized_activation(m.tensor_at(t).type) || (ops::facts(n.kind).packed_integer_operands >> k & 1u) != 0) continue;
    if (k == weights ? !m.tensor_at(t).quant.quantized() : m.tensor_at(t).quant.scale == 0.0f) return t;
  }
  if (is_quantized_activation(m.tensor_at(n.output).type) && m.tensor_at(n.output).quant.scale == 0.0f) return n.output;
  return -1;
}

// An op with ONNX's integer semantics (the module's policy is onnx and an ONNX integer kernel exists for
// its types; conv2d and dense in ONNX's layouts): pass::compute_requantization sets its ONNX fields.
template <class Module>
constexpr bool is_onnx_integer_op(const Module& m, const node& n) {
  const bool layout_ok = (n.kind != op_kind::conv2d && n.kind != op_kind::dense) || n.attrs.layout == data_layout::onnx;
  return m.requantization == requantization_policy::onnx && layout_ok &&
         onnx_integer::has_kernel(n.kind, m.tensor_at(n.inputs[0]).type, m.tensor_at(n.output).type);
}

// Whether an op's int8 kernel reads the quantization of its tensors: every int8 op but ONNX's integer ops
// (ConvInteger, MatMulInteger, plain integer arithmetic: no scales) and, under ONNX semantics, the ops whose
// int8 kernel is exact on plain integers (a reshape or transpose moves bytes; a clip without a scale clamps
// the raw integers). A float op (Conv, Gemm, Sigmoid, ...) reading an int8 tensor without quantization is
// thus rejected, not run as an int8 kernel over meaningless scales.
template <class Module>
constexpr bool needs_quantization(const Module& m, const node& n) {
  if (!is_quantized_op(m, n) || is_onnx_integer_op(m, n)) return false;
  const bool plain_integer_kernel = ops::facts(n.kind).plain_integer_kernel;
  return m.requantization == requantization_policy::tflite || !plain_integer_kernel;
}

// The structural parameters of the kernel that computes op `n` of `m` (its shapes and types must be
// inferred); for a quantized op, pass::compute_requantization adds the rest.
template <class Module>
constexpr kernel_params prepare_params(const Module& m, const node& n) {
  kernel_params p{};
  p.kind = n.kind;
  p.type = m.tensor_at(n.inputs[0]).type;
  p.out_type = m.tensor_at(n.output).type;
  p.fused = n.attrs.fused;
  p.in = m.tensor_at(n.inputs[0]).dims;
  p.out = m.tensor_at(n.output).dims;
  ops::visit(n.kind, [&](auto d) { d.prepare(m, n, p); });  // its own fields (ops/descriptor.hpp)
  return p;
}


}  // namespace ctnn::kernel
