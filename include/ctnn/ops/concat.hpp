#pragma once
// concat: its inputs joined along attrs.axis, every other extent equal (TFLite CONCATENATION, ONNX Concat).
// The int8 kernel copies the inputs quantized as the result and rescales the others (TFLite's
// ConcatenationWithScaling, with a per-input table); the int16 one copies every input (TFLM's: its inputs and
// result have zero point 0, their scales are not read), and so does the one of plain integers and bools. The descriptor of op_kind::concat (ops/descriptor.hpp).
// Whether a concat writes its inputs in place (their buffers slices of its result's) is the memory
// planner's (memory/buffers.hpp, concat_in_place).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/int8/data_movement.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct concat : prints_axis<op_defaults> {
  static constexpr op_kind kind = op_kind::concat;
  static constexpr operand_range operands{1, static_cast<std::int32_t>(max_node_inputs)};
  // Besides float32 and the quantized int8/int16, any plain integer or bool (ONNX's int64 index grids that
  // are too large to be known at import): a copy of the elements, by their size.
  static constexpr bool has_kernel(dtype type) { return any_type_move::has_kernel(type); }
  static constexpr bool int16_symmetric = true;
  static constexpr bool joins_operands = true;

  // The axis normalised (a negative one counts from the end), the inputs of one element type and rank,
  // equal but along the axis; the result's extent there is their sum.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const std::int32_t axis = n.attrs.axis < 0 ? n.attrs.axis + in.rank : n.attrs.axis;
    if (axis < 0 || axis >= in.rank) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = n.attrs.axis, .rank_actual = in.rank}});
      return in;
    }
    n.attrs.axis = axis;
    if (!shape_rules::operands_share_type(m, node_id, n.input_count)) return in;
    shape out = in;
    for (std::int32_t i = 1; i < n.input_count; ++i) {
      const shape other = m.tensor_at(n.inputs[static_cast<std::size_t>(i)]).dims;
      bool compatible = other.rank == in.rank;
      for (std::int32_t d = 0; compatible && d < in.rank; ++d) compatible = d == axis || other[d] == in[d];
      if (!compatible) {
        m.fail({error_code::input_shapes_differ, node_id, n.kind, in, other, {.input_slot = i}});
        return in;
      }
      if (!shape_rules::add_extent(m, node_id, out, axis, other[axis])) return in;
    }
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.axis = n.attrs.axis;
    concat_fields f{};
    f.count = n.input_count;
    for (std::int32_t i = 0; i < n.input_count; ++i)
      f.extents[static_cast<std::size_t>(i)] = m.tensor_at(n.inputs[static_cast<std::size_t>(i)]).dims[n.attrs.axis];
    p.set(f);
  }
  static constexpr std::size_t operands_read(const kernel_params& p) { return static_cast<std::size_t>(p.concat().count); }

  // The call's inputs as pointers to elements of type T.
  template <class T, class Params>
  [[gnu::always_inline]] static std::array<const T*, max_node_inputs> operands_as(Params p, const void* const* operands) {
    std::array<const T*, max_node_inputs> inputs{};
    for (std::size_t k = 0; k < static_cast<std::size_t>(p->concat().count); ++k) inputs[k] = static_cast<const T*>(operands[k]);
    return inputs;
  }

  // TFLite's: an input quantized otherwise than the result is rescaled with a table of each input's float
  // scale and bias (pass::requantization::concat_input_rescaling_of).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    concat_fields f = p.concat();
    f.rescales_inputs = q.inputs_quantized_as_result || p.type == dtype::i16 ? 0 : 1;
    p.set(f);
  }
  static constexpr requantization_recipe table_recipe(const kernel_params& p) {
    requantization_recipe r{};
    if (p.concat().rescales_inputs == 0) return r;
    r.table = requantization_table::concat_inputs;
    r.channels = p.concat().count;
    return r;
  }
  static constexpr bool has_table_arrays(const kernel_params& p, const kernel::requant_arrays& rq) {
    return p.concat().rescales_inputs == 0 || (rq.scale != nullptr && rq.bias != nullptr && rq.requantize != nullptr);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::concat(p, operands, result);
  }
  // Plain integers and bools are copied by their size; int8 and int16 are quantized activations (TFLite's
  // rescaling where an input is quantized otherwise).
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays& rq) {
    if (!is_quantized_activation(p->type)) {
      byte_move::with_integer_type(p, [&]<class T>(T) {
        kernel::reference::concat(p, operands_as<T>(p, operands).data(), static_cast<T*>(result));
      });
      return;
    }
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::concat(p, operands_as<T>(p, operands).data(), static_cast<T*>(result), rq.requantize, rq.scale, rq.bias);
    });
  }

  // The axis (prints_axis), then each input's extent along it.
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    prints_axis<op_defaults>::put_params(w, p);
    w.put(" extents ");
    put_numbers(w, p.concat().extents, p.concat().count);
  }
};

}  // namespace ctnn::ops
