#pragma once
// cumsum: the running sums along attrs.axis, each with (inclusive) or without (attrs.cumsum().exclusive) its own
// element, from the start of the axis or from its end (attrs.cumsum().reverse); the result shaped as the input
// (TFLite CUMSUM, ONNX CumSum). float32, int32 and int64 sum as they are (integers wrap); int8 as TFLM's
// reference kernel: each element plus its offset, shifted left by 20 and rescaled by 1/2 (ADD's recipe
// with one input), summed in int32 from a start that is the scaled offset itself (TFLM's accumulator starts
// at input_offset, not 0), requantized to the output. The descriptor of op_kind::cumsum (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/kernel/reference/int8/elementwise.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>
#include <ctnn/ops/add_n.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct cumsum : op_defaults {
  static constexpr op_kind kind = op_kind::cumsum;
  static constexpr bool has_kernel(dtype type) {
    return type == dtype::f32 || type == dtype::i8 || type == dtype::i32 || type == dtype::i64;
  }

  // The axis normalised (a negative one counts from the end).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const std::int32_t axis = n.attrs.axis < 0 ? n.attrs.axis + in.rank : n.attrs.axis;
    if (in.rank < 1 || axis < 0 || axis >= in.rank) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = n.attrs.axis, .rank_actual = in.rank}});
      return in;
    }
    n.attrs.axis = axis;
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.axis = n.attrs.axis;
    p.set(n.attrs.cumsum());
  }
  // TFLM's CalculateOpData (int8) is ADD_N's recipe: left_shift 20, the input rescaled by its scale / (2 * its
  // scale), the sum by that over 2^20 * the output scale, in double; no fused activation.
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    add_n::requantize(q, n, p);
  }

  // Calls sum(first, step, count) for each line along the axis: its elements are first + k * step, k < count,
  // in the order the sums run (reverse: from the end).
  template <class Params, class Line>
  [[gnu::always_inline]] static constexpr void for_each_line(Params p, Line&& sum) {
    std::int64_t outer = 1, inner = 1;
    for (std::int32_t d = 0; d < p->axis; ++d) outer *= p->in[d];
    for (std::int32_t d = p->axis + 1; d < p->in.rank; ++d) inner *= p->in[d];
    const std::int64_t depth = p->in[p->axis];
    const bool reverse = p->cumsum().reverse != 0;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i)
        sum(o * depth * inner + i + (reverse ? (depth - 1) * inner : 0), reverse ? -inner : inner, depth);
  }
  // The running sums of plain values (float32, int32, int64; integers wrap, through their unsigned type).
  template <class Params, class T, class Wide>
  static constexpr void plain_sums(Params p, const T* input, T* output, Wide) {
    const bool exclusive = p->cumsum().exclusive != 0;
    for_each_line(p, [&](std::int64_t at, std::int64_t step, std::int64_t count) {
      Wide total{};
      for (std::int64_t k = 0; k < count; ++k, at += step) {
        const Wide next = static_cast<Wide>(total + static_cast<Wide>(input[at]));
        output[at] = static_cast<T>(exclusive ? total : next);
        total = next;
      }
    });
  }
  template <class Params>
  static constexpr void quantized_sums(Params p, const std::int8_t* input, std::int8_t* output) {
    namespace q = ctnn::detail::quant;
    namespace int8 = kernel::reference::int8;
    const bool exclusive = p->cumsum().exclusive != 0;
    for_each_line(p, [&](std::int64_t at, std::int64_t step, std::int64_t count) {
      std::int32_t total = int8::scaled_input(p, 0, p->input_offset, p->input_multiplier, p->input_shift);
      for (std::int64_t k = 0; k < count; ++k, at += step) {
        const std::int32_t next =
            q::wrapping_add(total, int8::scaled_input(p, input[at], p->input_offset, p->input_multiplier, p->input_shift));
        output[at] = int8::requantize_output(p, exclusive ? total : next, p->output_multiplier, p->output_shift);
        total = next;
      }
    });
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    plain_sums(p, operands[0], result, float{});
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    if (p->type == dtype::i8) return quantized_sums(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
    if (p->type == dtype::i64)
      return plain_sums(p, static_cast<const std::int64_t*>(operands[0]), static_cast<std::int64_t*>(result), std::uint64_t{});
    plain_sums(p, static_cast<const std::int32_t*>(operands[0]), static_cast<std::int32_t*>(result), std::uint32_t{});
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  axis ", a.axis);
    w.field(" exclusive ", a.cumsum().exclusive);
    w.field(" reverse ", a.cumsum().reverse);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axis ", p.axis);
    w.field(" exclusive ", p.cumsum().exclusive);
    w.field(" reverse ", p.cumsum().reverse);
  }
};

}  // namespace ctnn::ops
