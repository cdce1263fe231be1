#pragma once
// scatter_elements: its first input (the data) with each element of its third input (the updates) written
// at the same position but along axis attrs.axis at the index its second input (int32 or int64, the updates'
// shape) holds there: for rank 2 and axis 1, out[i][indices[i][j]] = updates[i][j] (ONNX ScatterElements,
// the inverse of gather_elements). Elements in order, so with a repeated position the last update wins, or
// each combines with what is there (attrs.reduction: scatter_reduction, as scatter_nd's). An index below 0
// counts from the end of the axis; one still outside the axis is skipped, so that no write leaves the result
// (ONNX calls it an error; the indices may be computed at run time). The descriptor of
// op_kind::scatter_elements (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>
#include <ctnn/ops/gather_elements.hpp>
#include <ctnn/ops/scatter_nd.hpp>

namespace ctnn::ops {

struct scatter_elements : any_type_move {
  static constexpr op_kind kind = op_kind::scatter_elements;
  static constexpr operand_range operands{3, 3};  // the data, the indices, the updates
  static constexpr std::size_t operands_read(const kernel_params&) { return 3; }

  // Integer indices of the data's rank, no extent above the data's but along the axis; updates of the
  // indices' shape and the data's element type; a known reduction.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const tensor& data = m.tensor_at(n.inputs[0]);
    const tensor& indices = m.tensor_at(n.inputs[1]);
    const tensor& updates = m.tensor_at(n.inputs[2]);
    if (indices.type != dtype::i32 && indices.type != dtype::i64) {
      m.fail({error_code::unsupported_dtype, node_id, n.kind, {}, indices.dims,
              {.faulty_operand = 2, .rejected_value = static_cast<std::int64_t>(indices.type)}});
      return data.dims;
    }
    if (n.attrs.axis < 0 || n.attrs.axis >= data.dims.rank) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, data.dims, {.axis = n.attrs.axis, .rank_actual = data.dims.rank}});
      return data.dims;
    }
    bool fits = indices.dims.rank == data.dims.rank;
    for (std::int32_t d = 0; fits && d < data.dims.rank; ++d) fits = d == n.attrs.axis || indices.dims[d] <= data.dims[d];
    if (!fits) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, data.dims, indices.dims, {.faulty_operand = 2}});
      return data.dims;
    }
    if (updates.dims != indices.dims || updates.type != data.type || n.attrs.reduction < 0 ||
        n.attrs.reduction > static_cast<std::int32_t>(scatter_reduction::min)) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, indices.dims, updates.dims, {.faulty_operand = 3}});
      return data.dims;
    }
    return data.dims;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.axis = n.attrs.reduction;
    p.gather = {n.attrs.axis, m.tensor_at(n.inputs[1]).type};
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // a copy
  }

  template <class Params, class T, class Index>
  static constexpr void scatter_along(Params p, const T* data, const Index* indices, const T* updates, T* output) {
    if (output != data)
      for (std::int64_t i = 0, elements = p->out.elements(); i < elements; ++i) output[i] = data[i];
    const std::int64_t dim = p->out[p->gather.axis];
    const auto reduction = static_cast<scatter_reduction>(p->axis);
    gather_elements::for_each_position(p->out, p->in2, p->gather.axis, [&](std::int64_t e, std::int64_t base, std::int64_t stride) {
      const std::int64_t index = gather_elements::wrapped(indices[e], dim);
      if (index < 0) return;
      T& to = output[base + index * stride];
      to = scatter_nd::combined(reduction, to, updates[e]);
    });
  }
  template <class Params, class T>
  static constexpr void scatter(Params p, const T* data, const void* indices, const T* updates, T* output) {
    if (p->gather.indices == dtype::i64) scatter_along(p, data, static_cast<const std::int64_t*>(indices), updates, output);
    else scatter_along(p, data, static_cast<const std::int32_t*>(indices), updates, output);
  }

  // The indices are integers whatever the data's type: the float32 kernel's second operand is not a float.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    scatter(p, operands[0], static_cast<const void*>(operands[1]), operands[2], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) {
      scatter(p, static_cast<const T*>(operands[0]), operands[1], static_cast<const T*>(operands[2]), static_cast<T*>(result));
    });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  axis ", a.axis);
    w.field("  reduction ", a.reduction);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axis ", p.gather.axis);
    w.field("  reduction ", p.axis);
  }
};

}  // namespace ctnn::ops
