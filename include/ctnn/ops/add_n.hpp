#pragma once
// add_n: the sum of its operands, all of one shape and type (TFLite ADD_N). The descriptor of op_kind::add_n
// (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/int8/elementwise.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct add_n : op_defaults {
  static constexpr op_kind kind = op_kind::add_n;
  static constexpr operand_range operands{2, static_cast<std::int32_t>(max_node_inputs)};
  static constexpr bool elementwise = true;
  static constexpr std::uint32_t in_place_slots = 1;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  // Every operand of the first one's type and shape (TFLM's Prepare: HaveSameShapes, no broadcasting).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    if (!shape_rules::operands_share_type(m, node_id, n.input_count)) return in;
    for (std::int32_t k = 1; k < n.input_count; ++k)
      if (const shape other = m.tensor_at(n.inputs[static_cast<std::size_t>(k)]).dims; other != in) {
        m.fail({error_code::input_shapes_differ, node_id, n.kind, in, other, {.input_slot = k}});
        return in;
      }
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.operand_count = n.input_count;
  }
  static constexpr std::size_t operands_read(const kernel_params& p) { return static_cast<std::size_t>(p.operand_count); }

  // TFLM's ADD_N Prepare (every input quantized as the first, which the TFLite importer checks): left_shift
  // 20; the input rescaled by its scale / (2 * its scale), the sum by 2 * the input scale / (2^20 * the
  // output scale), in double.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.left_shift = 20;
    const double twice_input_scale = 2 * static_cast<double>(q.in.scale);
    q.set_multiplier(p.input_multiplier, p.input_shift, static_cast<double>(q.in.scale) / twice_input_scale);
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     twice_input_scale / ((1 << p.left_shift) * static_cast<double>(q.out.scale)));
    q.set_activation_range(activation::none, p);
  }

  // TFLM's reference AddN: 0 plus each input, in order.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    const std::int64_t elements = p->out.elements();
    for (std::int64_t i = 0; i < elements; ++i) {
      float sum = 0.0f;
      for (std::int32_t k = 0; k < p->operand_count; ++k) sum += operands[k][i];
      result[i] = sum;
    }
  }
  // TFLM's quantized AddN: the sum of the scaled inputs starts from the scaled input offset (its "x = 0" is
  // the offset, so one more -zero point joins the sum), then is rescaled to the output and clamped.
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    namespace i8 = kernel::reference::int8;
    auto* out = static_cast<std::int8_t*>(result);
    const std::int64_t elements = p->out.elements();
    for (std::int64_t i = 0; i < elements; ++i) {
      std::int32_t sum = i8::scaled_input(p, 0, p->input_offset, p->input_multiplier, p->input_shift);
      for (std::int32_t k = 0; k < p->operand_count; ++k)
        sum = ctnn::detail::quant::wrapping_add(
            sum, i8::scaled_input(p, static_cast<const std::int8_t*>(operands[k])[i], p->input_offset, p->input_multiplier,
                                  p->input_shift));
      out[i] = i8::requantize_output(p, sum, p->output_multiplier, p->output_shift);
    }
  }

  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  operands ", p.operand_count);
  }
};

}  // namespace ctnn::ops
