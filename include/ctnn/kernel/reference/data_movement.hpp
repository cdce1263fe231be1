#pragma once
// Reference data movement: reshape (a copy until alias_reshapes makes it a view), concat, pad.
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference {

template <kernel_params P>
constexpr void reshape(const float* input, float* output) {
  if (input == output) return;
  for (std::int64_t i = 0; i < P.out.elements(); ++i) output[i] = input[i];
}

template <kernel_params P>
constexpr void concat(const float* const* inputs, float* output) {
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
  float* to = output;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int32_t i = 0; i < P.concat_count; ++i) {
      const std::int64_t run = P.concat_extents[static_cast<std::size_t>(i)] * inner;
      const float* from = inputs[i] + o * run;
      for (std::int64_t k = 0; k < run; ++k) *to++ = from[k];
    }
}

template <kernel_params P>
constexpr void pad(const float* input, float* output) {
  for (std::int64_t i = 0; i < P.out.elements(); ++i) output[i] = P.pad_value();
  constexpr std::int32_t rank = P.in.rank;
  constexpr std::int32_t row = P.in[rank - 1];
  constexpr std::int64_t rows = P.in.elements() / row;
  // Walk the input row by row; each row lands at its padded coordinates in the output.
  std::array<std::int32_t, max_rank> index{};
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t at = 0;
    for (std::int32_t d = 0; d < rank; ++d) {
      const auto du = static_cast<std::size_t>(d);
      const std::int32_t coordinate = (d == rank - 1 ? 0 : index[du]) + P.pads[2 * du];
      at = at * P.out[d] + coordinate;
    }
    for (std::int32_t k = 0; k < row; ++k) output[at + k] = input[r * row + k];
    for (std::int32_t d = rank - 2; d >= 0; --d) {
      const auto du = static_cast<std::size_t>(d);
      if (++index[du] < P.in[d]) break;
      index[du] = 0;
    }
  }
}

}  // namespace ctnn::kernel::reference
