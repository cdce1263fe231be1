#pragma once
// Reference transpose, for any element type (float32 and int8 use it; an int8 transpose keeps its
// input's quantization): output dim d is input dim transpose.perm[d]. The output is walked in order with an
// odometer over its index, the input offset kept up to date by adding and subtracting strides: no
// division per element, and no calls (the compiler also runs it, in fold_constants, where clang counts
// every step).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>

namespace ctnn::kernel::reference {

template <class Params, class T>
constexpr void transpose(Params p, const T* input, T* output) {
  const std::int32_t rank = p->out.rank;
  const std::int64_t elements = p->out.elements();
  if (elements == 0) return;
  // The input's row-major strides, then the stride each output dim steps by in the input.
  std::array<std::int64_t, max_rank> input_stride{};
  std::int64_t step = 1;
  for (std::int32_t d = rank - 1; d >= 0; --d) {
    input_stride[static_cast<std::size_t>(d)] = step;
    step *= p->in[d];
  }
  std::array<std::int64_t, max_rank> stride{};
  std::array<std::int32_t, max_rank> extent{};
  for (std::int32_t d = 0; d < rank; ++d) {
    stride[static_cast<std::size_t>(d)] = input_stride[static_cast<std::size_t>(p->transpose.perm[static_cast<std::size_t>(d)])];
    extent[static_cast<std::size_t>(d)] = p->out[d];
  }
  std::array<std::int32_t, max_rank> index{};
  std::int64_t from = 0;
  for (std::int64_t i = 0; i < elements; ++i) {
    output[i] = input[from];
    // Advance the odometer: the last dim fastest; a dim that wraps rewinds its part of the offset.
    for (std::int32_t d = rank - 1; d >= 0; --d) {
      const auto k = static_cast<std::size_t>(d);
      from += stride[k];
      if (++index[k] < extent[k]) break;
      from -= stride[k] * extent[k];
      index[k] = 0;
    }
  }
}

// Whether the transpose keeps the order of the elements (it only moves extent-1 dims): then it is a
// reshape, and its result can be a view of its input.
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
