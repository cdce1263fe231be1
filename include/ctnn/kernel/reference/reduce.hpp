#pragma once
// Reductions over a set of axes (kernel_params::mean.reduce_axes is the bit mask of reduced axes; keep_dims or not
// does not change the element order). Each output element visits its inputs in row-major order of the
// reduced coordinates, which is the order TFLite's reference Reduce adds them in (it matters for float).
// float32 mean: the float sum divided by the element count (TFLite's reference Mean). The other
// reductions (reduce<Rule>): an accumulator from an initial value, one step per input, a last step per
// output (ONNX's ReduceL2: the square root, ReduceLogSum/LogSumExp: the log; the math functions are the
// unary ops', constexpr for fold_constants); TFLite's ReduceGeneric steps `in > current ? in : current`
// for max (a NaN input is skipped, where NumPy's max, ONNX's reference, would return NaN), likewise min.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/unary_math.hpp>

namespace ctnn::kernel::reference {

namespace detail {

struct reduction_plan {
  std::array<std::int64_t, max_rank> kept_extent{}, kept_stride{}, reduced_extent{}, reduced_stride{};
  std::int32_t kept = 0, reduced = 0;
  std::int64_t count = 1;    // inputs per output element
  std::int64_t outputs = 1;  // output elements
};

[[gnu::always_inline]] constexpr reduction_plan plan_reduction(const shape& in, std::uint32_t axes) {
  reduction_plan r{};
  std::int64_t stride = 1;
  std::array<std::int64_t, max_rank> strides{};
  for (std::int32_t d = in.rank - 1; d >= 0; --d) {
    strides[static_cast<std::size_t>(d)] = stride;
    stride *= in[d];
  }
  for (std::int32_t d = 0; d < in.rank; ++d) {
    const auto du = static_cast<std::size_t>(d);
    if ((axes >> d & 1u) != 0) {
      r.reduced_extent[static_cast<std::size_t>(r.reduced)] = in[d];
      r.reduced_stride[static_cast<std::size_t>(r.reduced++)] = strides[du];
      r.count *= in[d];
    } else {
      r.kept_extent[static_cast<std::size_t>(r.kept)] = in[d];
      r.kept_stride[static_cast<std::size_t>(r.kept++)] = strides[du];
      r.outputs *= in[d];
    }
  }
  return r;
}

// Advances a multi-index over `dims` axes (row-major, the last fastest) and `offset` with it: the next
// element's offset, through `stride` and `extent` per axis (wrapping to 0 after the last).
[[gnu::always_inline]] constexpr void advance_index(std::array<std::int64_t, max_rank>& index, std::int64_t& offset,
                                                    const std::array<std::int64_t, max_rank>& stride,
                                                    const std::array<std::int64_t, max_rank>& extent,
                                                    std::int32_t dims) {
  for (std::int32_t d = dims - 1; d >= 0; --d) {
    const auto du = static_cast<std::size_t>(d);
    offset += stride[du];
    if (++index[du] < extent[du]) break;
    offset -= stride[du] * extent[du];
    index[du] = 0;
  }
}

// Calls add(input_offset) for every input of each output element of plan `r`, in order, between start()
// and finish(output_index).
template <class Start, class Add, class Finish>
[[gnu::always_inline]] constexpr void for_each_reduction(const reduction_plan& r, Start&& start, Add&& add, Finish&& finish) {
  if (r.reduced == 1) {
    // One reduced axis (ARG_MAX's, a MEAN over the channels): TFLM's outer x axis x inner walk, offsets in the
    // target's pointer width, no multi-index.
    const auto inner = static_cast<std::ptrdiff_t>(r.reduced_stride[0]), extent = static_cast<std::ptrdiff_t>(r.count);
    const std::ptrdiff_t outer = inner == 0 ? 0 : static_cast<std::ptrdiff_t>(r.outputs) / inner;
    std::int64_t o = 0;
    for (std::ptrdiff_t a = 0; a < outer; ++a)
      for (std::ptrdiff_t i = 0; i < inner; ++i, ++o) {
        start();
        std::ptrdiff_t at = a * extent * inner + i;
        for (std::ptrdiff_t k = 0; k < extent; ++k, at += inner) add(at);
        finish(o);
      }
    return;
  }
  std::array<std::int64_t, max_rank> kept_index{};
  std::int64_t base = 0;
  for (std::int64_t o = 0; o < r.outputs; ++o) {
    start();
    std::array<std::int64_t, max_rank> reduced_index{};
    std::int64_t offset = 0;
    for (std::int64_t k = 0; k < r.count; ++k) {
      add(base + offset);
      advance_index(reduced_index, offset, r.reduced_stride, r.reduced_extent, r.reduced);
    }
    finish(o);
    advance_index(kept_index, base, r.kept_stride, r.kept_extent, r.kept);
  }
}

}  // namespace detail
template <class Params>
constexpr void mean(Params p, const float* input, float* output) {
  const detail::reduction_plan plan = detail::plan_reduction(p->in, p->mean.reduce_axes);
  const auto count = static_cast<float>(plan.count);
  float sum = 0.0f;
  const auto start = [&] { sum = 0.0f; };
  const auto add = [&](std::int64_t at) { sum += input[at]; };
  const auto finish = [&](std::int64_t o) { output[o] = sum / count; };
  detail::for_each_reduction(plan, start, add, finish);
}

// The accumulation rules of the reductions over elements of type T (float, or int8 for max and min): an
// initial value, one step per input, a last step per output. The op descriptors (ops/reduce.hpp) name theirs.
namespace reduction_rule {
template <class T>
struct sum {
  static constexpr T initial() { return T{0}; }
  static constexpr T step(T current, T in) { return current + in; }
  static constexpr T last(T accumulated) { return accumulated; }
};
template <class T>
struct maximum : sum<T> {
  static constexpr T initial() { return std::numeric_limits<T>::lowest(); }
  static constexpr T step(T current, T in) { return in > current ? in : current; }
};
template <class T>
struct minimum : sum<T> {
  static constexpr T initial() { return std::numeric_limits<T>::max(); }
  static constexpr T step(T current, T in) { return in < current ? in : current; }
};
template <class T>
struct product : sum<T> {
  static constexpr T initial() { return T{1}; }
  static constexpr T step(T current, T in) { return current * in; }
};
template <class T>
struct l1 : sum<T> {
  static constexpr T step(T current, T in) { return current + (in < T{0} ? -in : in); }
};
template <class T>
struct sum_square : sum<T> {
  static constexpr T step(T current, T in) { return current + in * in; }
};
template <class T>
struct l2 : sum_square<T> {
  static constexpr T last(T accumulated) { return unary_math::square_root(accumulated); }
};
template <class T>
struct log_sum : sum<T> {
  static constexpr T last(T accumulated) { return unary_math::natural_log(accumulated); }
};
template <class T>
struct log_sum_exp : log_sum<T> {
  static constexpr T step(T current, T in) { return current + unary_math::exponential(in); }
};
}  // namespace reduction_rule

template <template <class> class Rule, class T, class Params>
constexpr void reduce(Params p, const T* input, T* output) {
  using rule = Rule<T>;
  const detail::reduction_plan plan = detail::plan_reduction(p->in, p->mean.reduce_axes);
  T accumulated = rule::initial();
  const auto start = [&] { accumulated = rule::initial(); };
  const auto add = [&](std::int64_t at) { accumulated = rule::step(accumulated, input[at]); };
  const auto finish = [&](std::int64_t o) { output[o] = rule::last(accumulated); };
  detail::for_each_reduction(plan, start, add, finish);
}

// arg_max (Largest) / arg_min: per output, the position along the reduced axis of the first largest
// (smallest) input, as TFLite's ArgMinMax compares (`>`, `<`: a NaN is never chosen after the first
// element); select_last: of the last one (`>=`, `<=`).
template <bool Largest, class T, class Index, class Params>
constexpr void arg_extremum(Params p, const T* input, Index* output) {
  const detail::reduction_plan plan = detail::plan_reduction(p->in, p->mean.reduce_axes);
  const bool last = p->mean.select_last != 0;
  const auto better = [&](T candidate, T best) {
    if constexpr (Largest)
      return last ? candidate >= best : candidate > best;
    else
      return last ? candidate <= best : candidate < best;
  };
  T best{};
  std::int64_t position = 0, chosen = 0;
  const auto start = [&] { position = 0, chosen = 0; };
  const auto add = [&](std::int64_t at) {
    if (position == 0 || better(input[at], best)) best = input[at], chosen = position;
    ++position;
  };
  const auto finish = [&](std::int64_t o) { output[o] = static_cast<Index>(chosen); };
  detail::for_each_reduction(plan, start, add, finish);
}

}  // namespace ctnn::kernel::reference
