#pragma once
// Data movement for any element type (int8 here; the float kernels have their own): reshape is a copy
// (or nothing when alias_reshapes made it a view), concat copies rows, or requantizes an input whose
// quantization differs from the output's (TFLite's ConcatenationWithScaling: float scale and bias per
// input, round half away from zero, plus the output zero point, clamped), pad fills with the quantized
// fill value (output_offset; the output zero point for a zero pad).
#include <array>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference::int8 {

template <kernel_params P, class T>
constexpr void copy(const T* input, T* output) {
  if (input == output) return;
  for (std::int64_t i = 0; i < P.out.elements(); ++i) output[i] = input[i];
}

template <kernel_params P, class T>
constexpr void concat(const T* const* inputs, T* output, const std::int32_t* requantize = nullptr,
                      const float* scale = nullptr, const float* bias = nullptr) {
  constexpr std::int64_t outer = [] {
    std::int64_t n = 1;
    for (std::int32_t d = 0; d < P.axis; ++d) n *= P.out[d];
    return n;
  }();
  constexpr std::int64_t inner = [] {
    std::int64_t n = 1;
    for (std::int32_t d = P.axis + 1; d < P.out.rank; ++d) n *= P.out[d];
    return n;
  }();
  T* to = output;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int32_t i = 0; i < P.concat_count; ++i) {
      const std::int64_t run = P.concat_extents[static_cast<std::size_t>(i)] * inner;
      const T* from = inputs[i] + o * run;
      if (P.per_channel == 0 || requantize[i] == 0) {
        for (std::int64_t k = 0; k < run; ++k) *to++ = from[k];
      } else {
        for (std::int64_t k = 0; k < run; ++k) {
          const std::int64_t v = ctnn::detail::quant::round_to_int(static_cast<float>(from[k]) * scale[i] + bias[i]) + P.output_offset;
          *to++ = static_cast<T>(v < -128 ? -128 : (v > 127 ? 127 : v));
        }
      }
    }
}

template <kernel_params P, class T>
constexpr void pad(const T* input, T* output, T fill) {
  for (std::int64_t i = 0; i < P.out.elements(); ++i) output[i] = fill;
  constexpr std::int32_t rank = P.in.rank;
  constexpr std::int32_t row = P.in[rank - 1];
  constexpr std::int64_t rows = P.in.elements() / row;
  std::array<std::int32_t, max_rank> index{};
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t at = 0;
    for (std::int32_t d = 0; d < rank; ++d) {
      const auto du = static_cast<std::size_t>(d);
      at = at * P.out[d] + (d == rank - 1 ? 0 : index[du]) + P.pads[2 * du];
    }
    for (std::int32_t k = 0; k < row; ++k) output[at + k] = input[r * row + k];
    for (std::int32_t d = rank - 2; d >= 0; --d) {
      const auto du = static_cast<std::size_t>(d);
      if (++index[du] < P.in[d]) break;
      index[du] = 0;
    }
  }
}

}  // namespace ctnn::kernel::reference::int8
