#pragma once
// gather: its first input's slices along attrs.axis at the indices its second input holds (int32 or int64,
// constant or computed), shaped data[:axis] + indices + data[axis + 1:] (TFLite GATHER with batch_dims 0, ONNX
// Gather). The descriptor of op_kind::gather (ops/descriptor.hpp); the kernel clamps an index outside the
// axis (kernel/reference/data_movement.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct gather : any_type_move {
  static constexpr op_kind kind = op_kind::gather;
  static constexpr operand_range operands{2, 2};  // the data, the indices
  static constexpr std::size_t operands_read(const kernel_params&) { return 2; }

  // The axis normalised (a negative one counts from the end); integer indices; the result's rank within
  // max_rank.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const tensor& indices = m.tensor_at(n.inputs[1]);
    const std::int32_t axis = n.attrs.axis < 0 ? n.attrs.axis + in.rank : n.attrs.axis;
    if (axis < 0 || axis >= in.rank) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = n.attrs.axis, .rank_actual = in.rank}});
      return in;
    }
    if (indices.type != dtype::i32 && indices.type != dtype::i64) {
      m.fail({error_code::unsupported_dtype, node_id, n.kind, {}, indices.dims,
              {.faulty_operand = 2, .rejected_value = static_cast<std::int64_t>(indices.type)}});
      return in;
    }
    const std::int32_t rank = in.rank - 1 + indices.dims.rank;
    if (rank > static_cast<std::int32_t>(max_rank)) {
      m.fail({error_code::unsupported_rank, node_id, n.kind, {}, in,
              {.rank_expected = static_cast<std::int64_t>(max_rank), .rank_actual = rank}});
      return in;
    }
    n.attrs.axis = axis;
    shape out{};
    out.rank = rank;
    for (std::int32_t d = 0; d < rank; ++d)
      out.dims[static_cast<std::size_t>(d)] = d < axis                       ? in[d]
                                              : d < axis + indices.dims.rank ? indices.dims[d - axis]
                                                                             : in[d - indices.dims.rank + 1];
    return out.rank > 0 ? out : make_shape(1);  // a scalar: one element
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.set(gather_fields{n.attrs.axis, m.tensor_at(n.inputs[1]).type});
  }

  // The indices are integers whatever the data's type: the float32 kernel's second operand is not a float.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::gather(p, operands[0], static_cast<const void*>(operands[1]), result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) { kernel::reference::gather(p, static_cast<const T*>(operands[0]), operands[1], static_cast<T*>(result)); });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  axis ", a.axis);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axis ", p.gather().axis);
  }
};

}  // namespace ctnn::ops
