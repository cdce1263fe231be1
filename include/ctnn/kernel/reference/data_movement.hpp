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

namespace detail {

// Calls run(input, from, to, length) for each contiguous run a concat copies, in output order: input
// `input`'s elements [from, from + length) go to output elements [to, to + length). Shared by the float
// and int8 concat kernels.
template <kernel_params P, class Run>
[[gnu::always_inline]] constexpr void for_each_concat_run(Run&& run) {
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
  std::int64_t to = 0;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int32_t i = 0; i < P.concat_count; ++i) {
      const std::int64_t length = P.concat_extents[static_cast<std::size_t>(i)] * inner;
      run(i, o * length, to, length);
      to += length;
    }
}

}  // namespace detail

template <kernel_params P>
constexpr void concat(const float* const* inputs, float* output) {
  detail::for_each_concat_run<P>([&](std::int32_t i, std::int64_t from, std::int64_t to, std::int64_t length) {
    for (std::int64_t k = 0; k < length; ++k) output[to + k] = inputs[i][from + k];
  });
}

namespace detail {

// Fills the output with `fill`, then copies the input row by row to its padded place (float and int8).
template <kernel_params P, class T>
constexpr void pad_with(const T* input, T* output, T fill) {
  for (std::int64_t i = 0; i < P.out.elements(); ++i) output[i] = fill;
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

}  // namespace detail

template <kernel_params P>
constexpr void pad(const float* input, float* output) {
  detail::pad_with<P>(input, output, P.pad_value());
}

}  // namespace ctnn::kernel::reference
