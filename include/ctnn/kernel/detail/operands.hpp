#pragma once
// The int8 kernels' operands as kernel::invoke passes them (kernel/dispatch.hpp: constant and activation
// operands in the op's input order, then the result), unpacked once for every kernel family.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::detail {

// A windowed or dense call: input, weights (as stored, int8, or packed words), bias when P has one.
template <class Weight>
struct weighted_operands {
  const std::int8_t* input;
  const Weight* weights;
  const std::int32_t* bias;  // null without a bias
  std::int8_t* output;
};
template <kernel_params P, class Weight, std::size_t N>
[[gnu::always_inline]] inline weighted_operands<Weight> weighted_operands_of(const void* const (&operands)[N], void* result) {
  const std::int32_t* bias = nullptr;
  if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const std::int32_t*>(operands[N > 2 ? 2 : 0]);
  return {static_cast<const std::int8_t*>(operands[0]), static_cast<const Weight*>(operands[N > 1 ? 1 : 0]), bias,
          static_cast<std::int8_t*>(result)};
}

// An element-wise call of two inputs (int8, or T: ONNX's uint8 QLinearAdd).
template <class T = std::int8_t>
struct binary_operands {
  const T* a;
  const T* b;
  T* out;
};
template <class T = std::int8_t, std::size_t N>
[[gnu::always_inline]] inline binary_operands<T> binary_operands_of(const void* const (&operands)[N], void* result) {
  return {static_cast<const T*>(operands[0]), static_cast<const T*>(operands[N > 1 ? 1 : 0]), static_cast<T*>(result)};
}

}  // namespace ctnn::kernel::detail
