#pragma once
// slice: the window attrs.slice of its input (begin, stride and extent per input dim; a negative stride walks
// backwards), in order, under the result shape attrs.target (rank 0: the extents). TFLite STRIDED_SLICE,
// SLICE, SPLIT, SPLIT_V and UNPACK, ONNX Slice and Split become one (a split: one per output; dropping or
// adding unit dims only regroups the result). The descriptor of op_kind::slice (ops/descriptor.hpp).
//
// A view (alias_reshapes) only when its window is the input's first elements: a view shares its input's
// storage from its first byte (tensor::alias_of has no offset). A contiguous block further in (a split's
// later parts) is stored inside its input by the planner under ctnn::slice_in_place (memory/buffers.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/transpose.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct slice : any_type_move {
  static constexpr op_kind kind = op_kind::slice;
  static constexpr bool windows_its_input = true;

  // Every element of the window inside the input; the result holds the window's elements.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const slice_fields& s = n.attrs.slice;
    shape window{};
    window.rank = in.rank;
    for (std::int32_t d = 0; d < in.rank; ++d) {
      const auto k = static_cast<std::size_t>(d);
      const std::int64_t last = std::int64_t{s.begin[k]} + (std::int64_t{s.extent[k]} - 1) * s.stride[k];
      window.dims[k] = s.extent[k];
      if (s.extent[k] < 1 || s.stride[k] == 0 || s.begin[k] < 0 || s.begin[k] >= in[d] || last < 0 || last >= in[d]) {
        m.fail({error_code::input_shapes_differ, node_id, n.kind, in, window, {.axis = d}});
        return in;
      }
    }
    if (n.attrs.target.rank == 0) return window;
    if (n.attrs.target.elements() != window.elements()) {
      m.fail({error_code::reshape_element_count, node_id, n.kind, window, n.attrs.target,
              {.count_expected = window.elements(), .count_actual = n.attrs.target.elements()}});
      return in;
    }
    return n.attrs.target;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.slice = n.attrs.slice;
  }
  // Where the window starts in its input (elements, row-major) when it is one contiguous block of the input
  // in order, else -1: past its first dim of extent above 1 it spans every dim whole, stepping by 1 (before
  // that dim, extents of 1 at any begin).
  static constexpr std::int64_t contiguous_offset(const shape& in, const slice_fields& s) {
    std::int64_t offset = 0, stride = 1;
    bool whole = true;  // every dim after d spans its input dim whole
    for (std::int32_t d = in.rank - 1; d >= 0; --d) {
      const auto k = static_cast<std::size_t>(d);
      if (!whole) {
        if (s.extent[k] != 1) return -1;
      } else if (s.extent[k] != in[d] || in[d] == 1) {
        if (s.extent[k] > 1 && s.stride[k] != 1) return -1;
        whole = s.extent[k] == in[d] && s.begin[k] == 0;
      } else if (s.begin[k] != 0 || s.stride[k] != 1) {
        return -1;
      }
      offset += static_cast<std::int64_t>(s.begin[k]) * stride;
      stride *= in[d];
    }
    return offset;
  }
  // The window is the input's first elements in order.
  template <class Module>
  static constexpr bool is_view(const Module& m, const node& n) {
    return contiguous_offset(m.tensor_at(n.inputs[0]).dims, n.attrs.slice) == 0;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::slice(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) { kernel::reference::slice(p, static_cast<const T*>(operands[0]), static_cast<T*>(result)); });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op& op) {
    put_window(w, a.slice, op.rank);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_window(w, p.slice, p.in.rank);
  }
  template <class Writer>
  static void put_window(Writer& w, const slice_fields& s, std::int32_t rank) {
    w.put("  begin ");
    put_numbers(w, s.begin, rank);
    w.put(" stride ");
    put_numbers(w, s.stride, rank);
    w.put(" extent ");
    put_numbers(w, s.extent, rank);
  }
};

}  // namespace ctnn::ops
