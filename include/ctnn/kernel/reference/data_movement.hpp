#pragma once
// Reference data movement: reshape (a copy until alias_reshapes makes it a view), concat, pad, gather.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>

namespace ctnn::kernel::reference {

// A copy of the elements (nothing when the output is a view of the input). Any element type.
template <class Params, class T>
constexpr void copy(Params p, const T* input, T* output) {
  if (input == output) return;
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) output[i] = input[i];
}
template <class Params>
constexpr void reshape(Params p, const float* input, float* output) {
  copy(p, input, output);
}

namespace detail {

// Calls run(input, from, to, length) for each contiguous run a concat copies, in output order: input
// `input`'s elements [from, from + length) go to output elements [to, to + length). Shared by the float
// and int8 concat kernels.
template <class Params, class Run>
[[gnu::always_inline]] constexpr void for_each_concat_run(Params p, Run&& run) {
  std::int64_t outer = 1;
  for (std::int32_t d = 0; d < p->axis; ++d) outer *= p->out[d];
  std::int64_t inner = 1;
  for (std::int32_t d = p->axis + 1; d < p->out.rank; ++d) inner *= p->out[d];
  std::int64_t to = 0;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int32_t i = 0; i < p->concat().count; ++i) {
      const std::int64_t length = p->concat().extents[static_cast<std::size_t>(i)] * inner;
      run(i, o * length, to, length);
      to += length;
    }
}

// The same walk for parameters known at compile time (vectorised kernels use it).
template <kernel_params P, class Run>
[[gnu::always_inline]] constexpr void for_each_concat_run(Run&& run) {
  for_each_concat_run(static_params<P>{}, static_cast<Run&&>(run));
}

}  // namespace detail
// Its inputs' elements copied in output order: any element type (float32; plain integers and bools by size).
template <class Params, class T>
constexpr void concat(Params p, const T* const* inputs, T* output) {
  detail::for_each_concat_run(p, [&](std::int32_t i, std::int64_t from, std::int64_t to,
                                     std::int64_t length) {
    for (std::int64_t k = 0; k < length; ++k) output[to + k] = inputs[i][from + k];
  });
}

namespace detail {

// Pad in mode reflect, edge, wrap or symmetric: each output element reads the input element its coordinates
// map to (the mirror, the nearest border element, the element one period away, or the mirror that repeats the
// border, in every padded dim). Reflect assumes pads < extent (ONNX's rule), symmetric pads <= extent (TFLite's);
// larger pads keep mirroring, and wrap keeps wrapping, all in
// constant time per element (a model file may ask for pads far beyond the extent).
template <class Params, class T>
constexpr void pad_from_border(Params p, const T* input, T* output) {
  const std::int32_t rank = p->out.rank;
  const std::int64_t elements = p->out.elements();
  if (p->in.elements() == 0) {  // an empty input has no border to read (a model file can say so)
    for (std::int64_t i = 0; i < elements; ++i) output[i] = T{};
    return;
  }
  std::array<std::int32_t, max_rank> index{};  // the output coordinates of element i
  for (std::int64_t i = 0; i < elements; ++i) {
    std::int64_t from = 0;
    for (std::int32_t d = 0; d < rank; ++d) {
      const auto du = static_cast<std::size_t>(d);
      const std::int32_t extent = p->in[d];
      std::int32_t c = index[du] - p->pad.before_after[2 * du];
      if (p->pad.mode == pad_mode::wrap) {
        c %= extent;
        c = c < 0 ? c + extent : c;
      } else if (p->pad.mode == pad_mode::edge || (extent == 1 && p->pad.mode == pad_mode::reflect)) {
        c = c < 0 ? 0 : (c >= extent ? extent - 1 : c);
      } else if (p->pad.mode == pad_mode::symmetric) {  // the mirror with its border repeats every 2 * extent
        const std::int32_t period = 2 * extent;
        c %= period;
        c = c < 0 ? c + period : c;
        c = c >= extent ? period - 1 - c : c;
      } else {  // the mirror repeats every 2 * (extent - 1): one remainder, however far the pad reaches
        const std::int32_t period = 2 * (extent - 1);
        c %= period;
        c = c < 0 ? c + period : c;
        c = c >= extent ? period - c : c;
      }
      from = from * extent + c;
    }
    output[i] = input[from];
    for (std::int32_t d = rank - 1; d >= 0; --d) {
      const auto du = static_cast<std::size_t>(d);
      if (++index[du] < p->out[d]) break;
      index[du] = 0;
    }
  }
}

// Fills the output with `fill`, then copies the input row by row to its padded place (float and int8);
// modes reflect, edge, wrap and symmetric read the input's border instead.
template <class Params, class T>
[[gnu::always_inline]] constexpr void pad_with(Params p, const T* input, T* output, T fill) {
  if (p->pad.mode != pad_mode::constant) return pad_from_border(p, input, output);
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) output[i] = fill;
  const std::int32_t rank = p->in.rank;
  if (rank == 0) {  // a scalar: nothing to pad
    output[0] = input[0];
    return;
  }
  const std::int32_t row = p->in[rank - 1];
  if (row == 0) return;  // an empty input: only the fill
  const std::int64_t rows = p->in.elements() / row;
  // Walk the input row by row; each row lands at its padded coordinates in the output.
  std::array<std::int32_t, max_rank> index{};
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t at = 0;
    for (std::int32_t d = 0; d < rank; ++d) {
      const auto du = static_cast<std::size_t>(d);
      const std::int32_t coordinate = (d == rank - 1 ? 0 : index[du]) + p->pad.before_after[2 * du];
      at = at * p->out[d] + coordinate;
    }
    for (std::int32_t k = 0; k < row; ++k) output[at + k] = input[r * row + k];
    for (std::int32_t d = rank - 2; d >= 0; --d) {
      const auto du = static_cast<std::size_t>(d);
      if (++index[du] < p->in[d]) break;
      index[du] = 0;
    }
  }
}

}  // namespace detail
// Float32, and plain integers (ONNX's Pad of int32/int64/8-bit tensors: the importer checked that the
// fill value is one of the element type's values).
template <class Params, class T>
constexpr void pad(Params p, const T* input, T* output) {
  detail::pad_with(p, input, output, static_cast<T>(p->pad.fill_value()));
}

namespace detail {

template <class Params, class T, class Index>
constexpr void gather_at(Params p, const T* data, const Index* indices, T* output) {
  const std::int32_t axis = p->gather().axis;
  std::int64_t outer = 1, inner = 1;
  for (std::int32_t d = 0; d < axis; ++d) outer *= p->in[d];
  for (std::int32_t d = axis + 1; d < p->in.rank; ++d) inner *= p->in[d];
  const std::int64_t extent = p->in[axis], count = p->in2.elements();
  std::int64_t to = 0;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < count; ++i) {
      std::int64_t at = indices[i];
      at = at < 0 ? at + extent : at;
      at = at < 0 ? 0 : at >= extent ? extent - 1 : at;
      const T* from = data + (o * extent + at) * inner;
      for (std::int64_t r = 0; r < inner; ++r) output[to++] = from[r];
    }
}

}  // namespace detail

// gather: for each position before p->gather().axis, each index (p->in2's elements, in order) and the data's slice
// there along the axis. An index below 0 counts from the end (ONNX); one still outside [0, extent) is
// clamped, so that no read leaves the data (TFLite Micro leaves such an index undefined; ONNX calls it an
// error). The indices are int32 or int64 (p->gather().indices). Any element type.
template <class Params, class T>
constexpr void gather(Params p, const T* data, const void* indices, T* output) {
  if (p->gather().indices == dtype::i64) detail::gather_at(p, data, static_cast<const std::int64_t*>(indices), output);
  else detail::gather_at(p, data, static_cast<const std::int32_t*>(indices), output);
}

}  // namespace ctnn::kernel::reference
