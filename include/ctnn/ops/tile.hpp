#pragma once
// tile: result element (c_0, ..., c_r-1) is input element (c_0 mod in_0, ..., c_r-1 mod in_r-1), the result
// shaped attrs.target of the input's rank, each extent a multiple of the input's: a broadcast (unit extents
// repeated: TFLite BROADCAST_TO, ONNX Expand, after a reshape that adds the leading unit dims) or a tiling
// (ONNX Tile). The descriptor of op_kind::tile (ops/descriptor.hpp).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct tile : any_type_move {
  static constexpr op_kind kind = op_kind::tile;

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const shape& out = n.attrs.target;
    bool fits = out.rank == in.rank;
    for (std::int32_t d = 0; fits && d < in.rank; ++d) fits = in[d] >= 1 && out[d] >= 1 && out[d] % in[d] == 0;
    if (!fits) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, out, in, {}});
      return in;
    }
    return out;
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // a copy
  }

  // Row by row of the result's last axis (a copy, a fill of one value, or the input's row repeated), the input row's
  // offset carried by an odometer over the other axes (TFLM's BroadcastTo copies blocks likewise); offsets in the
  // target's pointer width.
  template <class Params, class T>
  static constexpr void repeat(Params p, const T* input, T* output) {
    const std::int32_t rank = p->out.rank;
    const std::int64_t elements = p->out.elements();
    if (elements == 0) return;
    if (rank == 0) {
      output[0] = input[0];
      return;
    }
    std::array<std::ptrdiff_t, max_rank> stride{};
    std::ptrdiff_t step = 1;
    for (std::int32_t d = rank - 1; d >= 0; --d) {
      stride[static_cast<std::size_t>(d)] = step;
      step *= p->in[d];
    }
    const std::ptrdiff_t out_run = p->out[rank - 1], in_run = p->in[rank - 1];
    std::array<std::int32_t, max_rank> index{}, wrapped{};  // the result's coordinates, and modulo the input's
    std::ptrdiff_t from = 0;                                  // the input row's offset
    T* to = output;
    for (std::int64_t done = 0; done < elements; done += out_run, to += out_run) {
      const T* row = input + from;
      if (in_run == out_run) {
        for (std::ptrdiff_t j = 0; j < out_run; ++j) to[j] = row[j];
      } else if (in_run == 1) {
        const T value = row[0];
        for (std::ptrdiff_t j = 0; j < out_run; ++j) to[j] = value;
      } else {
        for (std::ptrdiff_t j = 0, w = 0; j < out_run; ++j) {
          to[j] = row[w];
          if (++w == in_run) w = 0;
        }
      }
      for (std::int32_t d = rank - 2; d >= 0; --d) {
        const auto du = static_cast<std::size_t>(d);
        if (++wrapped[du] == p->in[d]) {
          wrapped[du] = 0;
          from -= stride[du] * (p->in[d] - 1);
        } else {
          from += stride[du];
        }
        if (++index[du] < p->out[d]) break;
        index[du] = 0;  // out[d] is a multiple of in[d]: wrapped is 0 again
      }
    }
  }
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    repeat(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) { repeat(p, static_cast<const T*>(operands[0]), static_cast<T*>(result)); });
  }
};

}  // namespace ctnn::ops
