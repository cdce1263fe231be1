#pragma once
// Reference transpose and slice, for any element type (float32 and int8 use them; an int8 transpose or slice
// keeps its input's quantization). Transpose: output dim d is input dim transpose.perm[d]; slice: a strided
// window of the input. The output is walked in order with an odometer over its index, the input offset kept
// up to date by adding and subtracting strides: no division and no call per element (the compiler also runs
// these, in fold_constants, where clang counts every step).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>

namespace ctnn::kernel::reference {

namespace detail {

// Copies the `rank`-dim window of the input that starts at element `from` and steps by stride[d] (elements,
// negative: backwards) along each of its extent[d] positions, in order, to output[0, elements). Transpose
// and slice walk the input so.
// A strided copy's walk without dims of extent 1 and with each dim merged into the one before it where the two step
// as one (a longer innermost run); offsets in the target's pointer width (32 bits on a Cortex-M: no 64-bit
// arithmetic). For a call with constant parameters the compiler computes it (transpose_plan_v, slice_plan_v).
struct strided_plan {
  std::array<std::ptrdiff_t, max_rank> stride{}, extent{};
  std::int32_t dims = 0;
  std::ptrdiff_t from = 0;
};
constexpr strided_plan plan_strided(std::int64_t from, const std::array<std::int64_t, max_rank>& strides,
                                    const std::array<std::int32_t, max_rank>& extents, std::int32_t rank) {
  strided_plan plan{};
  plan.from = static_cast<std::ptrdiff_t>(from);
  for (std::int32_t d = 0; d < rank; ++d) {
    const auto k = static_cast<std::size_t>(d);
    if (extents[k] == 1) continue;
    const auto s = static_cast<std::ptrdiff_t>(strides[k]);
    const auto n = static_cast<std::ptrdiff_t>(extents[k]);
    const auto last = static_cast<std::size_t>(plan.dims > 0 ? plan.dims - 1 : 0);
    if (plan.dims > 0 && plan.stride[last] == s * n) {
      plan.extent[last] *= n;
      plan.stride[last] = s;
    } else {
      plan.stride[static_cast<std::size_t>(plan.dims)] = s;
      plan.extent[static_cast<std::size_t>(plan.dims++)] = n;
    }
  }
  return plan;
}

template <class T>
constexpr void copy_strided(const T* input, T* output, const strided_plan& plan, std::int64_t elements) {
  if (elements == 0) return;
  std::ptrdiff_t at = plan.from;
  if (plan.dims == 0) {
    output[0] = input[at];
    return;
  }
  const auto inner = static_cast<std::size_t>(plan.dims - 1);
  const std::ptrdiff_t run = plan.extent[inner], step = plan.stride[inner];
  std::array<std::ptrdiff_t, max_rank> index{};
  T* to = output;
  for (std::int64_t done = 0; done < elements; done += run, to += run) {
    if (step == 1) {
      for (std::ptrdiff_t i = 0; i < run; ++i) to[i] = input[at + i];
    } else {
      for (std::ptrdiff_t i = 0, f = at; i < run; ++i, f += step) to[i] = input[f];
    }
    // Advance the odometer of the outer dims: the last fastest; a dim that wraps rewinds its part of the offset.
    for (std::int32_t d = plan.dims - 2; d >= 0; --d) {
      const auto k = static_cast<std::size_t>(d);
      at += plan.stride[k];
      if (++index[k] < plan.extent[k]) break;
      at -= plan.stride[k] * plan.extent[k];
      index[k] = 0;
    }
  }
}

constexpr std::array<std::int64_t, max_rank> row_major_strides(const shape& s) {
  std::array<std::int64_t, max_rank> strides{};
  std::int64_t step = 1;
  for (std::int32_t d = s.rank - 1; d >= 0; --d) {
    strides[static_cast<std::size_t>(d)] = step;
    step *= s[d];
  }
  return strides;
}

template <class Params>
constexpr strided_plan transpose_plan(Params p) {
  // The stride each output dim steps by in the input.
  const std::array<std::int64_t, max_rank> input_stride = row_major_strides(p->in);
  std::array<std::int64_t, max_rank> stride{};
  std::array<std::int32_t, max_rank> extent{};
  for (std::int32_t d = 0; d < p->out.rank; ++d) {
    stride[static_cast<std::size_t>(d)] = input_stride[static_cast<std::size_t>(p->transpose.perm[static_cast<std::size_t>(d)])];
    extent[static_cast<std::size_t>(d)] = p->out[d];
  }
  return plan_strided(0, stride, extent, p->out.rank);
}
template <class Params>
constexpr strided_plan slice_plan(Params p) {
  const std::array<std::int64_t, max_rank> input_stride = row_major_strides(p->in);
  std::array<std::int64_t, max_rank> stride{};
  std::int64_t from = 0;
  for (std::int32_t d = 0; d < p->in.rank; ++d) {
    const auto k = static_cast<std::size_t>(d);
    stride[k] = input_stride[k] * p->slice.stride[k];
    from += input_stride[k] * p->slice.begin[k];
  }
  return plan_strided(from, stride, p->slice.extent, p->in.rank);
}
template <kernel_params P>
inline constexpr strided_plan transpose_plan_v = transpose_plan(static_params<P>{});
template <kernel_params P>
inline constexpr strided_plan slice_plan_v = slice_plan(static_params<P>{});

}  // namespace detail

template <class Params, class T>
constexpr void transpose(Params p, const T* input, T* output) {
  if constexpr (constant_params<Params>::value)
    detail::copy_strided(input, output, detail::transpose_plan_v<constant_params<Params>::params>, p->out.elements());
  else
    detail::copy_strided(input, output, detail::transpose_plan(p), p->out.elements());
}

template <class Params, class T>
constexpr void slice(Params p, const T* input, T* output) {
  if constexpr (constant_params<Params>::value)
    detail::copy_strided(input, output, detail::slice_plan_v<constant_params<Params>::params>, p->out.elements());
  else
    detail::copy_strided(input, output, detail::slice_plan(p), p->out.elements());
}

constexpr bool transpose_is_a_reshape(const shape& in, const std::array<std::int32_t, max_rank>& perm) {
  std::int32_t last = -1;
  for (std::int32_t d = 0; d < in.rank; ++d) {
    const std::int32_t from = perm[static_cast<std::size_t>(d)];
    if (from < 0 || from >= in.rank) return false;
    if (in[from] == 1) continue;
    if (from < last) return false;
    last = from;
  }
  return true;
}

}  // namespace ctnn::kernel::reference
