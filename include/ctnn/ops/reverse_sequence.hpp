#pragma once
// reverse_sequence: its first input (rank >= 2) with, for each position b along the batch axis, the first
// lengths[b] elements along the time axis attrs.axis (0 or 1; the batch axis is the other of the two) in
// reverse order and the rest as they are; lengths[b] is its second input's element b (int32 or int64,
// constant or computed), clamped to [0, time extent] so that no read leaves the input (ONNX
// ReverseSequence, which requires it there). The descriptor of op_kind::reverse_sequence (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct reverse_sequence : any_type_move {
  static constexpr op_kind kind = op_kind::reverse_sequence;
  static constexpr operand_range operands{2, 2};  // the data, the lengths
  static constexpr std::size_t operands_read(const kernel_params&) { return 2; }

  // Rank >= 2, the time axis 0 or 1; integer lengths, one per batch position.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const tensor& lengths = m.tensor_at(n.inputs[1]);
    if (in.rank < 2 || (n.attrs.axis != 0 && n.attrs.axis != 1)) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = n.attrs.axis, .rank_actual = in.rank}});
      return in;
    }
    if ((lengths.type != dtype::i32 && lengths.type != dtype::i64) || lengths.dims.rank != 1 || lengths.dims[0] != in[1 - n.attrs.axis]) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, in, lengths.dims, {.faulty_operand = 2}});
      return in;
    }
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.axis = n.attrs.axis;  // the time axis
    p.set(gather_fields{0, m.tensor_at(n.inputs[1]).type});
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // a copy
  }

  template <class Params, class T>
  static constexpr void reverse_prefixes(Params p, const T* data, const void* lengths, T* output) {
    std::int64_t inner = 1;  // the elements after dims 0 and 1
    for (std::int32_t d = 2; d < p->in.rank; ++d) inner *= p->in[d];
    const std::int32_t time_axis = p->axis;
    const std::int64_t rows = p->in[0], columns = p->in[1], time = p->in[time_axis];
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t c = 0; c < columns; ++c) {
        const std::int64_t b = time_axis == 0 ? c : r, t = time_axis == 0 ? r : c;
        std::int64_t length = p->gather().indices == dtype::i64 ? static_cast<const std::int64_t*>(lengths)[b]
                                                              : static_cast<const std::int32_t*>(lengths)[b];
        length = length < 0 ? 0 : length > time ? time : length;
        const std::int64_t from_t = t < length ? length - 1 - t : t;
        const std::int64_t from = (time_axis == 0 ? from_t * columns + c : r * columns + from_t) * inner;
        for (std::int64_t e = 0; e < inner; ++e) output[(r * columns + c) * inner + e] = data[from + e];
      }
  }

  // The lengths are integers whatever the data's type: the float32 kernel's second operand is not a float.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    reverse_prefixes(p, operands[0], static_cast<const void*>(operands[1]), result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) { reverse_prefixes(p, static_cast<const T*>(operands[0]), operands[1], static_cast<T*>(result)); });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  time_axis ", a.axis);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  time_axis ", p.axis);
  }
};

}  // namespace ctnn::ops
