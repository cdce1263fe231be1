#pragma once
// scatter_elements: its first input (the data) with each element of its third input (the updates) written
// at the same position but along axis attrs.axis at the index its second input (int32 or int64, the updates'
// shape) holds there: for rank 2 and axis 1, out[i][indices[i][j]] = updates[i][j] (ONNX ScatterElements,
// the inverse of gather_elements). Elements in order, so with a repeated position the last update wins, or
// each combines with what is there (attrs.reduction: scatter_reduction, ops/scatter.hpp). An index below 0
// counts from the end of the axis; one still outside the axis is skipped, so that no write leaves the result
// (ONNX calls it an error; the indices may be computed at run time). The descriptor of
// op_kind::scatter_elements (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/ops/gather_elements.hpp>
#include <ctnn/ops/scatter.hpp>

namespace ctnn::ops {

struct scatter_elements : scatter_op<scatter_elements> {
  static constexpr op_kind kind = op_kind::scatter_elements;

  // Integer indices of the data's rank, no extent above the data's but along the axis; updates of the
  // indices' shape and the data's element type; a known reduction.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims, positions = m.tensor_at(n.inputs[1]).dims;
    if (!integer_indices(m, node_id)) return in;
    if (n.attrs.axis < 0 || n.attrs.axis >= in.rank) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = n.attrs.axis, .rank_actual = in.rank}});
      return in;
    }
    bool fits = positions.rank == in.rank;
    for (std::int32_t d = 0; fits && d < in.rank; ++d) fits = d == n.attrs.axis || positions[d] <= in[d];
    if (!fits) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, in, positions, {.faulty_operand = 2}});
      return in;
    }
    const tensor& updates = m.tensor_at(n.inputs[2]);
    if (updates.dims != positions || updates.type != m.tensor_at(n.inputs[0]).type || n.attrs.reduction < 0 ||
        n.attrs.reduction > static_cast<std::int32_t>(scatter_reduction::min)) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, positions, updates.dims, {.faulty_operand = 3}});
      return in;
    }
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.axis = n.attrs.reduction;
    p.set(gather_fields{n.attrs.axis, m.tensor_at(n.inputs[1]).type});
  }
  template <class Params, class T, class Index>
  static constexpr void scatter_into(Params p, const Index* indices, const T* updates, T* output) {
    const std::int64_t dim = p->out[p->gather().axis];
    const auto reduction = static_cast<scatter_reduction>(p->axis);
    gather_elements::for_each_position(p->out, p->in2, p->gather().axis, [&](std::int64_t e, std::int64_t base, std::int64_t stride) {
      const std::int64_t index = gather_elements::wrapped(indices[e], dim);
      if (index < 0) return;
      T& to = output[base + index * stride];
      to = combined(reduction, to, updates[e]);
    });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  axis ", a.axis);
    w.field("  reduction ", a.reduction);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axis ", p.gather().axis);
    w.field("  reduction ", p.axis);
  }
};

}  // namespace ctnn::ops
