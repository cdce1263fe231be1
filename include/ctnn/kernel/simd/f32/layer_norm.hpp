#pragma once
// float32 layer_norm over the last axes (ONNX LayerNormalization's usual form), vectorised: per row, the
// mean and the biased variance in double as the reference (ops/layer_norm.hpp), summed in vector lanes
// (sum_in_double_lanes; double's rounding, far below float's: the same floats but where the double value lies
// within a few double ulps of a float rounding boundary), then (x - mean) / sqrt(variance + epsilon) rounded to float
// (every element by the same vector code, the last ones of a row from a padded buffer),
// times the scale and plus the bias in float as the reference. The scale and the bias may be one per
// element of a row (LayerNormalization's), one for all, or whole; other shapes stay with the reference.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>
#include <ctnn/kernel/simd/f32/binary.hpp>
#include <ctnn/kernel/simd/f32/reduce.hpp>
#include <ctnn/kernel/simd/f32/unary.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::detail {

// Whether a scale or bias of shape `s` is one the kernel reads for rows of `row` elements of `in`.
constexpr bool row_operand(const shape& s, const shape& in, std::int64_t row) {
  const operand_layout l = layout_of(s, in);
  return l.form == operand_form::whole || l.form == operand_form::scalar ||
         (l.form == operand_form::per_column && l.inner == row);
}

}  // namespace ctnn::kernel::simd::detail

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct layer_norm : kernel::detail::reads_constants_as_stored {
  static constexpr std::int64_t row = detail::trailing_axes_elements(P.in, P.mean.reduce_axes);
  static constexpr bool scaled = P.operand_count >= 2, biased = P.operand_count >= 3;
  static constexpr bool supports = P.kind == op_kind::layer_norm && P.type == dtype::f32 && row > 0 &&
                                   (!scaled || detail::row_operand(P.in2, P.in, row)) &&
                                   (!biased || detail::row_operand(P.in3, P.in, row));

  static void run(const float* const* operands, float* result) {
    using D = detail::double_vector;
    constexpr long step = static_cast<long>(D::size);
    constexpr std::int64_t rows = P.in.elements() / row;
    const double epsilon = static_cast<double>(P.norm.epsilon());
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* x = operands[0] + r * row;
      float* y = result + r * row;
      const double mean = detail::sum_in_double_lanes<row>(x, [](const D& v) __attribute__((always_inline)) { return v; }) /
                          static_cast<double>(row);
      const D means(mean);
      const double squares = detail::sum_in_double_lanes<row>(x, [&](const D& v) __attribute__((always_inline)) {
        const D centred = v - means;
        return centred * centred;
      });
      const double deviation = std::sqrt(squares / static_cast<double>(row) + epsilon);
      const D deviations(deviation);
      // Every element of the row by the same vector code (the last ones from a padded buffer).
      detail::for_each_block<row, step>(x, y, [&](const float* from, float* to) __attribute__((always_inline)) {
        detail::in_double_lanes(from, to, [&](const D& v) __attribute__((always_inline)) { return (v - means) / deviations; });
      });
      if constexpr (scaled) scale_and_shift(operands, y, r);
    }
  }

 private:
  // y * scale + bias over one row, in float (the reference's second pass).
  static void scale_and_shift(const float* const* operands, float* y, std::int64_t r) {
    constexpr detail::operand_form scale_form = detail::layout_of(P.in2, P.in).form;
    constexpr detail::operand_form bias_form = biased ? detail::layout_of(P.in3, P.in).form : detail::operand_form::scalar;
    detail::for_each_channel_chunk<static_cast<int>(row)>([&](auto lanes, int c) __attribute__((always_inline)) {
      using V = decltype(lanes);
      const V scale = detail::load_operand<scale_form, V>(operands[1], r, row, c);
      V value = V::load_unaligned(y + c) * scale;
      if constexpr (biased) value = value + detail::load_operand<bias_form, V>(operands[2], r, row, c);
      else value = value + V::broadcast(0.0f);  // the reference adds 0 (-0 becomes +0)
      value.store_unaligned(y + c);
    });
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
