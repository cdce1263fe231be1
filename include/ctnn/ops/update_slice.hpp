#pragma once
// update_slice: its first input with the block of its second input (the update, of the same rank, no larger
// along any dim) written over it at the start its third input holds (int32 or int64, one per dim, constant or
// computed), each start clamped to [0, dim - update dim] so that the block lies inside (TFLite
// DYNAMIC_UPDATE_SLICE, as TFLM clamps). The descriptor of op_kind::update_slice (ops/descriptor.hpp).
#include <array>
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct update_slice : any_type_move {
  static constexpr op_kind kind = op_kind::update_slice;
  static constexpr operand_range operands{3, 3};  // the data, the update, the start
  static constexpr std::size_t operands_read(const kernel_params&) { return 3; }

  // The update of the data's rank and element type, within it; one integer start per dim.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const tensor& data = m.tensor_at(n.inputs[0]);
    const tensor& update = m.tensor_at(n.inputs[1]);
    const tensor& start = m.tensor_at(n.inputs[2]);
    bool fits = data.dims.rank >= 1 && update.dims.rank == data.dims.rank && update.type == data.type;
    for (std::int32_t d = 0; fits && d < data.dims.rank; ++d) fits = update.dims[d] >= 1 && update.dims[d] <= data.dims[d];
    if (!fits) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, data.dims, update.dims, {.faulty_operand = 1}});
      return data.dims;
    }
    if ((start.type != dtype::i32 && start.type != dtype::i64) || start.dims.rank != 1 || start.dims[0] != data.dims.rank) {
      m.fail({error_code::unsupported_dtype, node_id, n.kind, {}, start.dims,
              {.faulty_operand = 3, .rejected_value = static_cast<std::int64_t>(start.type)}});
      return data.dims;
    }
    return data.dims;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.set(gather_fields{0, m.tensor_at(n.inputs[2]).type});  // the start's element type
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // a copy
  }

  template <class Params, class T>
  static constexpr void write_block(Params p, const T* data, const T* update, const void* start, T* output) {
    const std::int32_t rank = p->out.rank;
    const std::int64_t elements = p->out.elements();
    if (output != data)
      for (std::int64_t i = 0; i < elements; ++i) output[i] = data[i];
    std::array<std::int64_t, max_rank> stride{};
    std::int64_t step = 1, at = 0;  // at: the block's first element in the result
    for (std::int32_t d = rank - 1; d >= 0; --d) {
      stride[static_cast<std::size_t>(d)] = step;
      step *= p->out[d];
    }
    for (std::int32_t d = 0; d < rank; ++d) {
      std::int64_t first = p->gather().indices == dtype::i64 ? static_cast<const std::int64_t*>(start)[d]
                                                           : static_cast<const std::int32_t*>(start)[d];
      const std::int64_t last = p->out[d] - p->in2[d];
      first = first < 0 ? 0 : first > last ? last : first;
      at += first * stride[static_cast<std::size_t>(d)];
    }
    // The update's rows (its last dim) in order; index: the row's coordinates in the update.
    const std::int64_t row = p->in2[rank - 1], rows = p->in2.elements() / row;
    std::array<std::int32_t, max_rank> index{};
    for (std::int64_t r = 0; r < rows; ++r) {
      std::int64_t to = at;
      for (std::int32_t d = 0; d + 1 < rank; ++d) to += index[static_cast<std::size_t>(d)] * stride[static_cast<std::size_t>(d)];
      for (std::int64_t e = 0; e < row; ++e) output[to + e] = update[r * row + e];
      for (std::int32_t d = rank - 2; d >= 0; --d) {
        if (++index[static_cast<std::size_t>(d)] < p->in2[d]) break;
        index[static_cast<std::size_t>(d)] = 0;
      }
    }
  }

  // The start is integers whatever the data's type: the float32 kernel's third operand is not a float.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    write_block(p, operands[0], operands[1], static_cast<const void*>(operands[2]), result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) {
      write_block(p, static_cast<const T*>(operands[0]), static_cast<const T*>(operands[1]), operands[2], static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
