#pragma once
// The operands of a call of a packed int8 kernel (gemm: conv2d and dense; depthwise_conv2d), as the
// executor passes them: input, packed weight words (with their per-channel corrections), the bias when the
// call has one, and the result.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::simd::i8_detail {

struct packed_operands {
  const std::int8_t* input;
  const std::int32_t* words;
  const std::int32_t* bias;  // null without a bias
  std::int8_t* output;
};

template <kernel_params P, std::size_t N>
[[gnu::always_inline]] inline packed_operands packed_operands_of(const void* const (&operands)[N], void* result) {
  const std::int32_t* bias = nullptr;
  if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const std::int32_t*>(operands[N > 2 ? 2 : 0]);
  return {static_cast<const std::int8_t*>(operands[0]), static_cast<const std::int32_t*>(operands[1]), bias,
          static_cast<std::int8_t*>(result)};
}

}  // namespace ctnn::kernel::simd::i8_detail
