#pragma once
// What the binary element-wise ops share (ops/sub.hpp): two operands of one element type, numpy
// broadcasting, a fused activation, a result that may overwrite either operand.
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct binary_elementwise : op_defaults {
  static constexpr operand_range operands{2, 2};
  static constexpr std::size_t operands_read(const kernel_params&) { return 2; }
  static constexpr bool elementwise = true;
  static constexpr std::uint32_t in_place_slots = 0b11;
  static constexpr bool takes_fused_activation = true;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    return shape_rules::broadcast_result(m, node_id);
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
  }

  // The int8 and int16 kernels of an op whose result element is one function of an element of each operand
  // (TFLM's quantized ADD, SUB, MUL, SQUARED_DIFFERENCE: one template over the activation type T): `element`
  // maps the two values to the result's, clamped to T already, over the broadcast.
  template <class Params, class Element>
  [[gnu::always_inline]] static void run_quantized(Params p, const void* const* operands, void* result,
                                                   Element element) {
    with_activation_type(p, [&]<class T>(T) {
      const auto* a = static_cast<const T*>(operands[0]);
      const auto* b = static_cast<const T*>(operands[1]);
      auto* out = static_cast<T*>(result);
      kernel::reference::detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        out[i] = static_cast<T>(element(std::int32_t{a[ia]}, std::int32_t{b[ib]}));
      });
    });
  }

  // ONNX's QLinearAdd and QLinearMul (a QDQ model's DequantizeLinear -> Add/Mul -> QuantizeLinear; their
  // requantize_onnx): the second input's zero point and scale beside the first's
  // (kernel/reference/onnx_quant/add.hpp, mul.hpp); a plain integer op has no result scale.
  template <class Module>
  static constexpr void second_input_onnx_quantization(const Module& m, const node& n, kernel_params& p) {
    if (m.tensor_at(n.output).quant.scale == 0.0f || n.input_count < 2) return;
    const quantization& b = m.tensor_at(n.inputs[1]).quant;
    p.input2_offset = -b.zero_point;
    p.onnx.input2_scale_bits = std::bit_cast<std::uint32_t>(b.scale);
  }
};

}  // namespace ctnn::ops
