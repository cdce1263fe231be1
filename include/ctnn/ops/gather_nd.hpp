#pragma once
// gather_nd: for each index tuple of its second input (int32 or int64; the last dim is the tuple's length
// k), the slice data[b_0, ..., b_B-1, t_0, ..., t_k-1, :, ...] of its first input, where the B = attrs.axis
// leading dims (batch dims) are shared by data and indices and b_* is the tuple's own position in them;
// shaped indices[:-1] + data[B + k:] (TFLite GATHER_ND: B 0, ONNX GatherND's batch_dims). The indices may
// be computed at run time. A component below 0
// counts from the end of its dim (ONNX); a tuple with a component still outside its dim gives a slice of
// zeros, so that no read leaves the data (TFLM's Eval returns an error there, having checked only that the
// slice's flat position lies inside the data; ONNX calls it an error). The descriptor of op_kind::gather_nd
// (ops/descriptor.hpp).
#include <array>
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct gather_nd : any_type_move {
  static constexpr op_kind kind = op_kind::gather_nd;
  static constexpr operand_range operands{2, 2};  // the data, the indices
  static constexpr std::size_t operands_read(const kernel_params&) { return 2; }

  // Integer indices of rank above the batch dims, which they share with the data, whose tuples reach no
  // further than the data's rank; the result's rank within max_rank.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const tensor& indices = m.tensor_at(n.inputs[1]);
    if (indices.type != dtype::i32 && indices.type != dtype::i64) {
      m.fail({error_code::unsupported_dtype, node_id, n.kind, {}, indices.dims,
              {.faulty_operand = 2, .rejected_value = static_cast<std::int64_t>(indices.type)}});
      return in;
    }
    const std::int32_t batch = n.attrs.axis, tuple = indices.dims.rank > 0 ? indices.dims[indices.dims.rank - 1] : 0;
    bool fits = batch >= 0 && batch < indices.dims.rank && tuple >= 1 && batch + tuple <= in.rank;
    for (std::int32_t d = 0; fits && d < batch; ++d) fits = indices.dims[d] == in[d];
    if (!fits) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, in, indices.dims, {.faulty_operand = 2}});
      return in;
    }
    const std::int32_t rank = indices.dims.rank - 1 + in.rank - batch - tuple;
    if (rank > static_cast<std::int32_t>(max_rank)) {
      m.fail({error_code::unsupported_rank, node_id, n.kind, {}, in,
              {.rank_expected = static_cast<std::int64_t>(max_rank), .rank_actual = rank}});
      return in;
    }
    shape out{};
    out.rank = rank;
    for (std::int32_t d = 0; d < rank; ++d)
      out.dims[static_cast<std::size_t>(d)] =
          d < indices.dims.rank - 1 ? indices.dims[d] : in[d - (indices.dims.rank - 1) + batch + tuple];
    return out.rank > 0 ? out : make_shape(1);  // a scalar: one element
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.set(gather_fields{n.attrs.axis, m.tensor_at(n.inputs[1]).type});  // axis: the batch dims
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // a copy
  }

  template <class Params, class T, class Index>
  static constexpr void gather_tuples(Params p, const T* data, const Index* indices, T* output) {
    const std::int32_t batch = p->gather().axis, tuple = p->in2[p->in2.rank - 1];
    std::array<std::int64_t, max_rank> stride{};  // of each data dim, in elements
    std::int64_t step = 1;
    for (std::int32_t d = p->in.rank - 1; d >= 0; --d) {
      stride[static_cast<std::size_t>(d)] = step;
      step *= p->in[d];
    }
    const std::int64_t slice_elements = stride[static_cast<std::size_t>(batch + tuple - 1)];
    const std::int64_t batch_elements = batch > 0 ? stride[static_cast<std::size_t>(batch - 1)] : 0;
    const std::int64_t tuples = p->in2.elements() / tuple;
    std::int64_t batches = 1;
    for (std::int32_t d = 0; d < batch; ++d) batches *= p->in[d];
    const std::int64_t tuples_per_batch = tuples / batches;
    for (std::int64_t t = 0; t < tuples; ++t, output += slice_elements) {
      std::int64_t from = t / tuples_per_batch * batch_elements;
      bool inside = true;
      for (std::int32_t d = 0; d < tuple; ++d) {
        const std::int64_t dim = p->in[batch + d];
        std::int64_t at = indices[t * tuple + d];
        at = at < 0 ? at + dim : at;
        const bool in_dim = at >= 0 && at < dim;  // an index outside adds nothing (its product may overflow)
        inside = inside && in_dim;
        if (in_dim) from += at * stride[static_cast<std::size_t>(batch + d)];
      }
      for (std::int64_t e = 0; e < slice_elements; ++e) output[e] = inside ? data[from + e] : T{};
    }
  }
  template <class Params, class T>
  static constexpr void gather(Params p, const T* data, const void* indices, T* output) {
    if (p->gather().indices == dtype::i64) gather_tuples(p, data, static_cast<const std::int64_t*>(indices), output);
    else gather_tuples(p, data, static_cast<const std::int32_t*>(indices), output);
  }

  // The indices are integers whatever the data's type: the float32 kernel's second operand is not a float.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    gather(p, operands[0], static_cast<const void*>(operands[1]), result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) { gather(p, static_cast<const T*>(operands[0]), operands[1], static_cast<T*>(result)); });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  batch_dims ", a.axis);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  batch_dims ", p.gather().axis);
  }
};

}  // namespace ctnn::ops
