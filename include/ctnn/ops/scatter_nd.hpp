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

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// How an update combines with the element it lands on (ONNX ScatterND's reduction attribute).
enum class scatter_reduction : std::int32_t { none, add, mul, max, min };

struct scatter_nd : any_type_move {
  static constexpr op_kind kind = op_kind::scatter_nd;
  static constexpr operand_range operands{3, 3};  // the data, the indices, the updates
  static constexpr std::size_t operands_read(const kernel_params&) { return 3; }

  // Integer indices whose tuples reach no further than the data's rank; updates of the data's element type,
  // shaped indices[:-1] + data[k:].
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
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // a copy
  }

  template <class T>
  static constexpr T combined(scatter_reduction r, T old, T update) {
    switch (r) {
      case scatter_reduction::add: return static_cast<T>(old + update);
      case scatter_reduction::mul: return static_cast<T>(old * update);
      case scatter_reduction::max: return old < update ? update : old;
      case scatter_reduction::min: return update < old ? update : old;
      case scatter_reduction::none: break;
    }
    return update;
  }
  template <class Params, class T, class Index>
  static constexpr void scatter_tuples(Params p, const T* data, const Index* indices, const T* updates, T* output) {
    const std::int64_t elements = p->out.elements();
    if (output != data)
      for (std::int64_t i = 0; i < elements; ++i) output[i] = data[i];
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
  template <class Params, class T>
  static constexpr void scatter(Params p, const T* data, const void* indices, const T* updates, T* output) {
    if (p->gather().indices == dtype::i64) scatter_tuples(p, data, static_cast<const std::int64_t*>(indices), updates, output);
    else scatter_tuples(p, data, static_cast<const std::int32_t*>(indices), updates, output);
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
    w.field("  reduction ", a.axis);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  reduction ", p.axis);
  }
};

}  // namespace ctnn::ops
