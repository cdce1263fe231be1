#pragma once
// scatter_nd: its first input (the data) with, for each index tuple of its second input (int32 or int64; the
// last dim is the tuple's length k), the slice data[t_0, ..., t_k-1, :, ...] replaced by (or combined with)
// the matching slice of its third input (the updates, shaped indices[:-1] + data[k:]); tuples in order, so a
// repeated one's last update wins (ONNX ScatterND: repeated tuples are an error there). attrs.axis holds
// the reduction (scatter_reduction). A component below 0 counts from the end of its dim; a tuple with a
// component still outside its dim is skipped, so that no write leaves the result. The descriptor of
// op_kind::scatter_nd (ops/descriptor.hpp).
#include <array>
#include <cstdint>

#include <ctnn/ops/scatter.hpp>

namespace ctnn::ops {

struct scatter_nd : scatter_op<scatter_nd> {
  static constexpr op_kind kind = op_kind::scatter_nd;

  // Integer indices whose tuples reach no further than the data's rank; updates of the data's element type,
  // shaped indices[:-1] + data[k:].
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const tensor& data = m.tensor_at(n.inputs[0]);
    const tensor& indices = m.tensor_at(n.inputs[1]);
    const tensor& updates = m.tensor_at(n.inputs[2]);
    if (!integer_indices(m, node_id)) return data.dims;
    const std::int32_t tuple = indices.dims.rank > 0 ? indices.dims[indices.dims.rank - 1] : 0;
    shape expected{};  // the updates' shape
    expected.rank = indices.dims.rank - 1 + data.dims.rank - tuple;
    bool fits = tuple >= 1 && tuple <= data.dims.rank && expected.rank <= static_cast<std::int32_t>(max_rank) &&
                updates.type == data.type && n.attrs.axis >= 0 && n.attrs.axis <= static_cast<std::int32_t>(scatter_reduction::min);
    for (std::int32_t d = 0; fits && d < expected.rank; ++d)
      expected.dims[static_cast<std::size_t>(d)] =
          d < indices.dims.rank - 1 ? indices.dims[d] : data.dims[d - (indices.dims.rank - 1) + tuple];
    if (!fits || updates.dims.elements() != expected.elements() ||
        (updates.dims != expected && !(expected.rank == 0 && updates.dims.elements() == 1))) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, expected, updates.dims, {.faulty_operand = 3}});
      return data.dims;
    }
    return data.dims;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.axis = n.attrs.axis;  // the reduction
    p.set(gather_fields{0, m.tensor_at(n.inputs[1]).type});
  }
  template <class Params, class T, class Index>
  static constexpr void scatter_into(Params p, const Index* indices, const T* updates, T* output) {
    const std::int32_t tuple = p->in2[p->in2.rank - 1];
    std::array<std::int64_t, max_rank> stride{};
    std::int64_t step = 1;
    for (std::int32_t d = p->out.rank - 1; d >= 0; --d) {
      stride[static_cast<std::size_t>(d)] = step;
      step *= p->out[d];
    }
    const std::int64_t slice_elements = stride[static_cast<std::size_t>(tuple - 1)];
    const std::int64_t tuples = p->in2.elements() / tuple;
    const auto reduction = static_cast<scatter_reduction>(p->axis);
    for (std::int64_t t = 0; t < tuples; ++t) {
      std::int64_t to = 0;
      bool inside = true;
      for (std::int32_t d = 0; d < tuple; ++d) {
        std::int64_t at = indices[t * tuple + d];
        at = at < 0 ? at + p->out[d] : at;
        const bool in_dim = at >= 0 && at < p->out[d];  // an index outside adds nothing (its product may overflow)
        inside = inside && in_dim;
        if (in_dim) to += at * stride[static_cast<std::size_t>(d)];
      }
      if (!inside) continue;
      for (std::int64_t e = 0; e < slice_elements; ++e)
        output[to + e] = combined(reduction, output[to + e], updates[t * slice_elements + e]);
    }
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  reduction ", a.axis);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  reduction ", p.axis);
  }
};

}  // namespace ctnn::ops
