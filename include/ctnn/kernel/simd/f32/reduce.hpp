#pragma once
// float32 mean over the last axes (a decomposed LayerNormalization's ReduceMean, keep_dims or not), vectorised:
// per row, the sum in double lanes (sum_in_double_lanes, shared with layer_norm.hpp) divided by the count in
// double, rounded once to float. The reference (kernel/reference/reduce.hpp, TFLite's Mean) sums in float
// in row order: the results differ by the float sum's rounding (relative to the sum of magnitudes, a few
// 2^-24 per element), this one's being the closer to the exact mean. Every row by the same code, the last
// elements (fewer than a vector) from a padded block that counts 0: a row's mean does not depend on where
// the row is.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>
#include <ctnn/kernel/simd/f32/unary.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::detail {

// The elements per row when `axes` (bit d: axis d) are exactly the last ones of `in`; 0 otherwise.
constexpr std::int64_t trailing_axes_elements(const shape& in, std::uint32_t axes) {
  std::int64_t count = 1;
  std::int32_t d = in.rank - 1;
  for (; d >= 0 && (axes >> d & 1u) != 0u; --d) count *= in[d];
  for (; d >= 0; --d)
    if ((axes >> d & 1u) != 0u) return 0;
  return axes != 0u ? count : 0;
}

// The sum of term(x[i] as a double) over [0, Row), in double lanes: lane k sums the elements at positions k
// modulo the vector's size, the last ones (fewer than a vector) from a padded block whose padding lanes count
// 0, then the lanes are added (xsimd::hadd). One order for every row.
template <long Row, class Term>
[[gnu::always_inline]] inline double sum_in_double_lanes(const float* x, Term&& term) {
  using D = double_vector;
  constexpr long step = static_cast<long>(D::size);
  constexpr long full = Row / step * step;
  alignas(64) double values[step];
  D sums(0.0);
  for (long i = 0; i < full; i += step) {
    for (long k = 0; k < step; ++k) values[k] = static_cast<double>(x[i + k]);
    sums += term(D::load_aligned(values));
  }
  if constexpr (full < Row) {
    for (long k = 0; k < step; ++k) values[k] = k < Row - full ? static_cast<double>(x[full + k]) : 0.0;
    term(D::load_aligned(values)).store_aligned(values);
    for (long k = Row - full; k < step; ++k) values[k] = 0.0;
    sums += D::load_aligned(values);
  }
  return xsimd::hadd(sums);
}

}  // namespace ctnn::kernel::simd::detail

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct mean : kernel::detail::reads_constants_as_stored {
  static constexpr std::int64_t row = detail::trailing_axes_elements(P.in, P.mean.reduce_axes);
  static constexpr bool supports = P.kind == op_kind::mean && P.type == dtype::f32 && P.out_type == dtype::f32 && row > 1;

  static void run(const float* const* operands, float* result) {
    constexpr std::int64_t rows = P.in.elements() / row;
    for (std::int64_t r = 0; r < rows; ++r) {
      const double sum = detail::sum_in_double_lanes<row>(operands[0] + r * row, [](const detail::double_vector& v)
                                                              __attribute__((always_inline)) { return v; });
      result[r] = static_cast<float>(sum / static_cast<double>(row));
    }
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
