#pragma once
// float32 softmax over the last axis, vectorised where the time goes: each e^(x - largest) in double lanes
// (xsimd's exp, within an ulp or two of double) rounded once to float, which is the float exp's value but
// where that lies within those ulps of a float rounding boundary (<cmath>'s expf, the reference's, is itself
// within 0.502 ulp), every element of a row by the same vector code (the last ones from a padded buffer);
// the row's largest element and the sum in float in the reference's order; then the
// products by 1 / sum as the reference (kernel/reference/elementwise.hpp). A masked entry (-inf) gives 0, a row
// of -inf or with +inf or NaN gives NaN, as the reference (unary.hpp's exp_of and in_double_lanes).
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>
#include <ctnn/kernel/simd/f32/unary.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct softmax : kernel::detail::reads_constants_as_stored {
  static constexpr std::int32_t depth = P.in.rank > 0 ? P.in.last() : 0;
  static constexpr bool supports = P.kind == op_kind::softmax && P.type == dtype::f32 && P.out_type == dtype::f32 &&
                                   depth >= static_cast<std::int32_t>(detail::double_vector::size);

  static void run(const float* const* operands, float* result) {
    using D = detail::double_vector;
    constexpr long step = static_cast<long>(D::size);
    constexpr std::int64_t rows = P.in.elements() / depth;
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* x = operands[0] + r * depth;
      float* y = result + r * depth;
      float largest = x[0];
      for (std::int32_t i = 1; i < depth; ++i) largest = x[i] > largest ? x[i] : largest;
      // x - largest in float, e^ of it in double lanes; the last elements of a row through the same code
      // (a padded block): each element's value depends on its row alone, not on its position.
      detail::for_each_block<depth, step>(x, y, [largest](const float* from, float* to) __attribute__((always_inline)) {
        alignas(64) float centred[step];
        for (long k = 0; k < step; ++k) centred[k] = from[k] - largest;
        detail::in_double_lanes(centred, to,
                                [](const D& v) __attribute__((always_inline)) { return detail::exp_of(v); });
      });
      float sum = 0.0f;
      for (std::int32_t i = 0; i < depth; ++i) sum += y[i];
      const float scale = 1.0f / sum;
      detail::for_each_channel_chunk<depth>([&](auto lanes, int c) __attribute__((always_inline)) {
        using V = decltype(lanes);
        (V::load_unaligned(y + c) * V::broadcast(scale)).store_unaligned(y + c);
      });
    }
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
