#pragma once
// Reference element-wise ops: add and mul with numpy broadcasting (float32; plain integers with ONNX's
// wrap-around), and softmax over the last axis.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/unary_math.hpp>

namespace ctnn::kernel::reference {

namespace detail {

// Element strides of `operand` seen through the broadcast `out` shape (0 along broadcast axes).
[[gnu::always_inline]] constexpr std::array<std::int64_t, max_rank> broadcast_strides(const shape& operand, const shape& out) {
  std::array<std::int64_t, max_rank> strides{};
  std::int64_t stride = 1;
  for (std::int32_t d = out.rank - 1; d >= 0; --d) {
    const std::int32_t od = operand.rank - out.rank + d;
    const std::int32_t extent = od >= 0 ? operand[od] : 1;
    strides[static_cast<std::size_t>(d)] = extent == 1 ? 0 : stride;
    stride *= extent;
  }
  return strides;
}

// Calls f(i, ia, ib) for every element i of the broadcast shape `out`, with the matching element offsets
// of the two operands of shapes `a` and `b`: the walk shared by the binary kernels (float, int8, plain
// integers) and batch_matmul's batches.
template <class F>
[[gnu::always_inline]] constexpr void for_each_broadcast(const shape& a, const shape& b, const shape& out, F&& f) {
  const std::int64_t elements = out.elements();
  if (a == out && b == out) {
    for (std::int64_t i = 0; i < elements; ++i) f(i, i, i);
    return;
  }
  const auto stride_a = broadcast_strides(a, out);
  const auto stride_b = broadcast_strides(b, out);
  std::array<std::int32_t, max_rank> index{};
  std::int64_t ia = 0, ib = 0;
  for (std::int64_t i = 0; i < elements; ++i) {
    f(i, ia, ib);
    // Odometer increment of the output index, updating both operand offsets.
    for (std::int32_t d = out.rank - 1; d >= 0; --d) {
      const auto du = static_cast<std::size_t>(d);
      ia += stride_a[du];
      ib += stride_b[du];
      if (++index[du] < out[d]) break;
      ia -= stride_a[du] * out[d];
      ib -= stride_b[du] * out[d];
      index[du] = 0;
    }
  }
}

// The walk over the broadcast output p->out of a binary op's operands p->in and p->in2.
template <class Params, class F>
[[gnu::always_inline]] constexpr void for_each_broadcast(Params p, F&& f) {
  for_each_broadcast(p->in, p->in2, p->out, static_cast<F&&>(f));
}

// The same walk for parameters known at compile time (vectorised kernels use it).
template <kernel_params P, class F>
[[gnu::always_inline]] constexpr void for_each_broadcast(F&& f) {
  for_each_broadcast(static_params<P>{}, static_cast<F&&>(f));
}

}  // namespace detail
// A float binary op `f` over the broadcast operands, then the fused activation.
template <class Params, class F>
constexpr void binary_with(Params p, const float* a, const float* b, float* output, F f) {
  detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
    output[i] = activate(p->fused, f(a[ia], b[ib]));
  });
}
// ONNX's integer Add, Sub, Mul, Max and Min on plain integers (T: uint8, int8, int32, int64), numpy
// broadcasting: Apply is the op's evaluation of two int64 values (its descriptor's on_known_integers: add,
// sub and mul wrap around in uint64), narrowed back to T, which wraps around in T as ONNX's arithmetic does.
template <auto Apply, class Params, class T>
constexpr void integer_binary(Params p, const T* a, const T* b, T* output) {
  static_assert(std::is_integral_v<T>, "ctnn: integer_binary runs on integer elements.");
  detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
    output[i] = static_cast<T>(Apply(static_cast<std::int64_t>(a[ia]), static_cast<std::int64_t>(b[ib])));
  });
}
// Calls row(x, y, depth, largest) for each row of the last axis (softmax, log_softmax): its input, its
// result, their length and the row's largest element.
template <class Params, class Row>
constexpr void for_each_last_axis_row(Params p, const float* input, float* output, Row&& row) {
  const std::int32_t depth = p->in.last();
  if (depth == 0) return;  // an empty last axis: no element (a model file can say so)
  const std::int64_t rows = p->in.elements() / depth;
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* x = input + r * depth;
    float largest = x[0];
    for (std::int32_t i = 1; i < depth; ++i) largest = x[i] > largest ? x[i] : largest;
    row(x, output + r * depth, depth, largest);
  }
}
template <class Params>
constexpr void softmax(Params p, const float* input, float* output) {
  for_each_last_axis_row(p, input, output, [](const float* x, float* y, std::int32_t depth, float largest) {
    float sum = 0.0f;
    for (std::int32_t i = 0; i < depth; ++i) sum += (y[i] = reference::exp(x[i] - largest));
    const float scale = 1.0f / sum;
    for (std::int32_t i = 0; i < depth; ++i) y[i] *= scale;
  });
}
// TFLite's reference LogSoftmax (float32): x - max - log(sum of exp(x - max)).
template <class Params>
constexpr void log_softmax(Params p, const float* input, float* output) {
  for_each_last_axis_row(p, input, output, [](const float* x, float* y, std::int32_t depth, float largest) {
    float sum = 0.0f;
    for (std::int32_t i = 0; i < depth; ++i) sum += reference::exp(x[i] - largest);
    const float log_sum = unary_math::natural_log(sum);
    for (std::int32_t i = 0; i < depth; ++i) y[i] = x[i] - largest - log_sum;
  });
}

}  // namespace ctnn::kernel::reference
