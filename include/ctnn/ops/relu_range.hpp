#pragma once
// What relu, relu_n1_to_1 and relu_0_to_1 share (ops/relu.hpp, ops/relu_n1_to_1.hpp, ops/relu_0_to_1.hpp):
// TFLite's int8 recipe of a ReLU with a range (ReluQuantized, QuantizedReluX) and its kernel.
#include <cstdint>
#include <limits>

#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// Requantized from the input's to the output's quantization (input scale / output scale in float, then
// widened), clamped to the bounds in the output's quantization: zero point + roundf(bound / scale), within
// the element type (int8; relu's int16 too); an infinite upper bound is the type's largest.
constexpr void requantize_relu_range(const quantized_operands& q, float lower, float upper, kernel_params& p) {
  namespace quant = ctnn::detail::quant;
  const std::int32_t lowest = lowest_value(p.type), highest = highest_value(p.type);
  q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale / q.out.scale));
  const std::int64_t low = q.out.zero_point + quant::round_to_int(lower / q.out.scale);
  p.activation_min = low > lowest ? static_cast<std::int32_t>(low) : lowest;
  if (upper == std::numeric_limits<float>::infinity()) {
    p.activation_max = highest;
  } else {
    const std::int64_t high = q.out.zero_point + quant::round_to_int(upper / q.out.scale);
    p.activation_max = high < highest ? static_cast<std::int32_t>(high) : highest;
  }
}

// A ReLU clamped to [Lower, Upper] (whole numbers: clang 14 takes no float template arguments), not a
// fused activation of ctnn's (fuse_ops leaves it an op of its own).
template <op_kind K, std::int32_t Lower, std::int32_t Upper>
struct relu_range_op : unary_elementwise {
  static constexpr op_kind kind = K;
  static constexpr bool non_negative_result = Lower >= 0;

  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    requantize_relu_range(q, static_cast<float>(Lower), static_cast<float>(Upper), p);
  }
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::unary_with(p, operands[0], result, [](float x) {
      return kernel::reference::clamp_between(x, static_cast<float>(Lower), static_cast<float>(Upper));
    });
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::int8::relu(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
