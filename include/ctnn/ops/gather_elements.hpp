#pragma once
// gather_elements: its second input's shape, each element read from its first input at the same position
// but along axis attrs.axis at the index the second input holds there (int32 or int64): for rank 3 and axis
// 1, out[i][j][k] = data[i][indices[i][j][k]][k] (ONNX GatherElements, numpy's take_along_axis). An index
// below 0 counts from the end of the axis (ONNX); one still outside the axis gives 0, so that no read leaves
// the data (ONNX calls it an error; the indices may be computed at run time). The descriptor of
// op_kind::gather_elements (ops/descriptor.hpp).
#include <array>
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct gather_elements : any_type_move {
  static constexpr op_kind kind = op_kind::gather_elements;
  static constexpr operand_range operands{2, 2};  // the data, the indices
  static constexpr std::size_t operands_read(const kernel_params&) { return 2; }

  // Integer indices of the data's rank, the axis inside it, and no extent above the data's but along the axis.
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
    if (n.attrs.axis < 0 || n.attrs.axis >= in.rank) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = n.attrs.axis, .rank_actual = in.rank}});
      return in;
    }
    bool fits = indices.dims.rank == in.rank;
    for (std::int32_t d = 0; fits && d < in.rank; ++d) fits = d == n.attrs.axis || indices.dims[d] <= in[d];
    if (!fits) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, in, indices.dims, {.faulty_operand = 2}});
      return in;
    }
    return indices.dims;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.set(gather_fields{n.attrs.axis, m.tensor_at(n.inputs[1]).type});
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // a copy
  }

  // Calls at(e, base, stride) for each element e of an index-shaped tensor (`positions`, the last dim fastest):
  // base, the offset in a tensor of shape `data` of the element at e's coordinates but 0 along `axis`; stride,
  // that of `axis` (scatter_elements writes where this reads).
  template <class At>
  static constexpr void for_each_position(const shape& data, const shape& positions, std::int32_t axis, At&& at) {
    const std::int32_t rank = data.rank;
    std::array<std::int64_t, max_rank> stride{};  // of each data dim, in elements
    std::int64_t step = 1;
    for (std::int32_t d = rank - 1; d >= 0; --d) {
      stride[static_cast<std::size_t>(d)] = step;
      step *= data[d];
    }
    const std::int64_t count = positions.elements();
    std::array<std::int32_t, max_rank> coordinate{};
    for (std::int64_t e = 0; e < count; ++e) {
      std::int64_t base = 0;
      for (std::int32_t d = 0; d < rank; ++d)
        if (d != axis) base += coordinate[static_cast<std::size_t>(d)] * stride[static_cast<std::size_t>(d)];
      at(e, base, stride[static_cast<std::size_t>(axis)]);
      for (std::int32_t d = rank - 1; d >= 0; --d) {  // the next position, the last dim fastest
        if (++coordinate[static_cast<std::size_t>(d)] < positions[d]) break;
        coordinate[static_cast<std::size_t>(d)] = 0;
      }
    }
  }
  // An index along an axis of extent `dim`, one below 0 counted from the end; -1 when still outside.
  static constexpr std::int64_t wrapped(std::int64_t index, std::int64_t dim) {
    index = index < 0 ? index + dim : index;
    return index >= 0 && index < dim ? index : -1;
  }

  template <class Params, class T, class Index>
  static constexpr void gather_along(Params p, const T* data, const Index* indices, T* output) {
    const std::int64_t dim = p->in[p->gather().axis];
    for_each_position(p->in, p->in2, p->gather().axis, [&](std::int64_t e, std::int64_t base, std::int64_t stride) {
      const std::int64_t index = wrapped(indices[e], dim);
      output[e] = index >= 0 ? data[base + index * stride] : T{};
    });
  }
  template <class Params, class T>
  static constexpr void gather(Params p, const T* data, const void* indices, T* output) {
    if (p->gather().indices == dtype::i64) gather_along(p, data, static_cast<const std::int64_t*>(indices), output);
    else gather_along(p, data, static_cast<const std::int32_t*>(indices), output);
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
    w.field("  axis ", a.axis);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axis ", p.gather().axis);
  }
};

}  // namespace ctnn::ops
