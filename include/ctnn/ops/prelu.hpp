#pragma once
// prelu: x >= 0 ? x : x alpha, alpha the second operand broadcast against x (TFLite PRELU, ONNX PRelu):
// float32, int8, and int16 with an int8 alpha (TFLM's). The descriptor of op_kind::prelu (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/binary.hpp>
#include <ctnn/ops/negative_side.hpp>

namespace ctnn::ops {

struct prelu : binary_elementwise {
  static constexpr op_kind kind = op_kind::prelu;
  static constexpr bool takes_fused_activation = false;
  static constexpr bool has_kernel(dtype type) { return binary_elementwise::has_kernel(type) || type == dtype::i16; }

  // The operands share their element type, except TFLM's int16 PRELU: an int16 input with an int8 alpha (its
  // Prepare refuses any other alpha there).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    if (m.tensor_at(n.inputs[0]).type != dtype::i16) return binary_elementwise::infer(m, node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims, alpha = m.tensor_at(n.inputs[1]).dims;
    const dtype alpha_type = m.tensor_at(n.inputs[1]).type;
    shape out{};
    if (alpha_type != dtype::i8)
      m.fail({error_code::unsupported_dtype,
              node_id,
              n.kind,
              {},
              alpha,
              {.faulty_operand = 2, .rejected_value = static_cast<std::int64_t>(alpha_type)}});
    else if (!shape_rules::broadcast(in, alpha, out))
      m.fail({error_code::input_shapes_differ, node_id, n.kind, in, alpha, {.input_slot = 1}});
    return m.error.failed() ? in : out;
  }

  // TFLM's CalculatePreluParams: input scale / output scale (the positive side) and input scale x alpha
  // scale / output scale (the negative side), in double; alpha's zero point negated.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     static_cast<double>(q.in.scale) / static_cast<double>(q.out.scale));
    negative_side_fields negative{};
    q.set_multiplier(negative.multiplier, negative.shift,
                     static_cast<double>(q.in.scale) * static_cast<double>(q.in2.scale) / static_cast<double>(q.out.scale));
    p.set(negative);
  }
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) {
    return negative_side::checked_shift(recipe);
  }
  template <class Writer>
  static void put_requantization(Writer& w, const kernel_params& p) {
    negative_side::put_requantization(w, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, kernel::reference::prelu);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::prelu(p, static_cast<const T*>(operands[0]),
                                     static_cast<const std::int8_t*>(operands[1]), static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
