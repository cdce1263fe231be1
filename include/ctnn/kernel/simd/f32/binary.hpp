#pragma once
// float32 binary element-wise kernels, vectorised: add, sub, mul, div, maximum and minimum, with the
// broadcasts real models make (a scalar, a per-channel vector such as LayerNormalization's scale and bias,
// one value per row such as its mean and deviation over the last axis), and add/sub/mul/div's fused relu /
// relu6. The same operation per element as the reference kernels (x / y a division, maximum / minimum a
// compare and select): identical results. And pow by a single exponent of 2 (scalar_power).
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/reference/unary_function.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::detail {

// How an operand covers the output seen as [outer][inner] rows.
enum class operand_form : std::uint8_t {
  whole,       // one element per output element
  scalar,      // one element for all
  per_row,     // one element per row, repeated along it (a mean over the last axes, kept)
  per_column,  // one row, repeated for every row (a per-channel scale or bias)
  unsupported,
};

struct operand_layout {
  operand_form form = operand_form::unsupported;
  std::int64_t inner = 0;  // the row length this form needs (per_row, per_column)
};

// `operand`'s form against the broadcast result `out` (shapes aligned at their last axes).
constexpr operand_layout layout_of(const shape& operand, const shape& out) {
  const std::int64_t elements = out.elements();
  if (operand.elements() == elements) return {operand_form::whole, 0};
  if (operand.elements() == 1) return {operand_form::scalar, 0};
  const auto extent = [&](std::int32_t d) {
    const std::int32_t od = operand.rank - out.rank + d;
    return od >= 0 ? operand[od] : 1;
  };
  // per_row: the leading axes as the result's, then only 1s; per_column: only 1s, then the trailing axes as
  // the result's.
  std::int32_t split = 0;
  while (split < out.rank && extent(split) == out[split]) ++split;
  bool ones_after = true;
  for (std::int32_t d = split; d < out.rank; ++d) ones_after = ones_after && extent(d) == 1;
  if (ones_after) return {operand_form::per_row, elements / operand.elements()};
  std::int32_t first = out.rank;
  while (first > 0 && extent(first - 1) == out[first - 1]) --first;
  bool ones_before = true;
  for (std::int32_t d = 0; d < first; ++d) ones_before = ones_before && extent(d) == 1;
  if (ones_before) return {operand_form::per_column, operand.elements()};
  return {};
}

struct binary_plan {
  operand_form a = operand_form::unsupported, b = operand_form::unsupported;
  std::int64_t outer = 0, inner = 0;
  constexpr bool supported() const { return outer > 0; }
};

// One row length both operands agree on; whole and scalar operands take any (then one row of everything).
constexpr binary_plan plan_binary(const shape& a, const shape& b, const shape& out) {
  const operand_layout la = layout_of(a, out), lb = layout_of(b, out);
  binary_plan plan{la.form, lb.form};
  if (la.form == operand_form::unsupported || lb.form == operand_form::unsupported || out.elements() == 0) return plan;
  const std::int64_t inner = la.inner != 0 ? la.inner : (lb.inner != 0 ? lb.inner : out.elements());
  if ((la.inner != 0 && la.inner != inner) || (lb.inner != 0 && lb.inner != inner)) return plan;
  plan.inner = inner;
  plan.outer = out.elements() / inner;
  return plan;
}

template <operand_form Form, class V>
[[gnu::always_inline]] inline V load_operand(const float* x, std::int64_t row, std::int64_t inner, int c) {
  if constexpr (Form == operand_form::whole) return V::load_unaligned(x + row * inner + c);
  else if constexpr (Form == operand_form::scalar) return V::broadcast(x[0]);
  else if constexpr (Form == operand_form::per_row) return V::broadcast(x[row]);
  else return V::load_unaligned(x + c);
}

template <op_kind Kind, class V>
[[gnu::always_inline]] inline V apply_binary(const V& x, const V& y) {
  if constexpr (Kind == op_kind::add) return x + y;
  else if constexpr (Kind == op_kind::sub) return x - y;
  else if constexpr (Kind == op_kind::mul) return x * y;
  else if constexpr (Kind == op_kind::div) return x / y;
  else if constexpr (Kind == op_kind::maximum) return greater_of(x, y);  // x > y ? x : y
  else if constexpr (std::is_same_v<V, scalar_lane>) return {x.value < y.value ? x.value : y.value};
  else return xsimd::select(x < y, x, y);  // minimum: x < y ? x : y
}

constexpr bool binary_kind(op_kind k) {
  return k == op_kind::add || k == op_kind::sub || k == op_kind::mul || k == op_kind::div || k == op_kind::maximum ||
         k == op_kind::minimum;
}

}  // namespace ctnn::kernel::simd::detail

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct binary : kernel::detail::reads_constants_as_stored {
  static constexpr detail::binary_plan plan = detail::plan_binary(P.in, P.in2, P.out);
  // Other broadcasts (both operands repeated along different axes in other patterns) stay with the reference.
  static constexpr bool supports = detail::binary_kind(P.kind) && P.type == dtype::f32 && plan.supported() &&
                                   detail::vector_activation(P.fused);

  static void run(const float* const* operands, float* result) {
    const float* a = operands[0];
    const float* b = operands[1];
    constexpr std::int64_t inner = plan.inner;
    for (std::int64_t row = 0; row < plan.outer; ++row) {
      float* to = result + row * inner;
      detail::for_each_channel_chunk<static_cast<int>(inner)>([&](auto lanes, int c) __attribute__((always_inline)) {
        using V = decltype(lanes);
        const V x = detail::load_operand<plan.a, V>(a, row, inner, c);
        const V y = detail::load_operand<plan.b, V>(b, row, inner, c);
        detail::activate<P.fused>(detail::apply_binary<P.kind>(x, y)).store_unaligned(to + c);
      });
    }
  }
};

// binary_function's pow with one exponent for all (a decomposed LayerNormalization's Pow(x - mean, 2)): at
// exponent 2, x * x, which is pow's value (the double product of two floats is exact, so both round it once
// to float: identical results); any other exponent, the reference's function per element.
template <kernel_params P>
struct scalar_power : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = P.kind == op_kind::binary_function && P.type == dtype::f32 &&
                                   P.coefficients.function == math_function::pow && P.in2.elements() == 1 &&
                                   P.in.elements() == P.out.elements();

  static void run(const float* const* operands, float* result) {
    const float* x = operands[0];
    const float exponent = operands[1][0];
    if (exponent == 2.0f) {
      detail::for_each_channel_chunk<static_cast<int>(P.out.elements())>([&](auto lanes, int i) __attribute__((always_inline)) {
        using V = decltype(lanes);
        const V v = V::load_unaligned(x + i);
        (v * v).store_unaligned(result + i);
      });
      return;
    }
    for (std::int64_t i = 0; i < P.out.elements(); ++i)
      result[i] = reference::unary_function::apply_binary(math_function::pow, x[i], exponent);
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
