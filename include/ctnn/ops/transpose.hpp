#pragma once
// transpose: output dim d is input dim attrs.transpose.perm[d] (ONNX Transpose, and the layout changes the
// ONNX importer inserts). The descriptor of op_kind::transpose (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/transpose.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct transpose : byte_move {
  static constexpr op_kind kind = op_kind::transpose;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::transpose;

  // perm must name each input dim once.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    shape out = in;
    std::uint32_t seen = 0;
    for (std::int32_t d = 0; d < in.rank; ++d) {
      const std::int32_t from = n.attrs.transpose.perm[static_cast<std::size_t>(d)];
      if (from < 0 || from >= in.rank || (seen >> from & 1u) != 0) {
        m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = from, .rank_actual = in.rank}});
        return in;
      }
      seen |= 1u << from;
      out.dims[static_cast<std::size_t>(d)] = in[from];
    }
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.transpose = n.attrs.transpose;
  }
  // A transpose that keeps the order of the extents other than 1 moves no byte: alias_reshapes makes its
  // result a view of its input.
  template <class Module>
  static constexpr bool is_view(const Module& m, const node& n) {
    return kernel::reference::transpose_is_a_reshape(m.tensor_at(n.inputs[0]).dims, n.attrs.transpose.perm);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::transpose(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) {
      kernel::reference::transpose(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op& op) {
    w.put("  perm ");
    put_numbers(w, a.transpose.perm, op.rank);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.put("  perm ");
    put_numbers(w, p.transpose.perm, p.in.rank);
  }
};

}  // namespace ctnn::ops
