#pragma once
// squared_difference: (a - b)^2, numpy broadcasting (TFLite SQUARED_DIFFERENCE: float32, int8, int16, int32). The
// descriptor of op_kind::squared_difference (ops/descriptor.hpp).
#include <algorithm>
#include <cstdint>

#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/elementwise.hpp>
#include <ctnn/kernel/reference/logic.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

struct squared_difference : binary_elementwise {
  static constexpr op_kind kind = op_kind::squared_difference;
  static constexpr bool takes_fused_activation = false;
  static constexpr bool has_kernel(dtype type) {
    return type == dtype::f32 || type == dtype::i8 || type == dtype::i16 || type == dtype::i32;
  }
  // TFLM's SquaredDifferencePrepare requires zero points 0 on int16.
  static constexpr bool int16_symmetric = true;

  // TFLM's PrepareQuantized (int8, int16): left_shift 7 (int16: 0); each input rescaled by its scale / (2 * the
  // larger input scale) (multipliers below one), the squared difference by (2 * larger scale)^2 / (2^(2
  // left_shift) * output scale), that product computed in float as TFLM's int * float; no activation (the
  // type's range: set_activation_range of none).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    p.left_shift = p.type == dtype::i16 ? 0 : 7;
    const double twice_max_input_scale = 2.0 * static_cast<double>(std::max(q.in.scale, q.in2.scale));
    q.set_multiplier(p.input_multiplier, p.input_shift, static_cast<double>(q.in.scale) / twice_max_input_scale);
    q.set_multiplier(p.input2_multiplier, p.input2_shift, static_cast<double>(q.in2.scale) / twice_max_input_scale);
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     twice_max_input_scale * twice_max_input_scale /
                         static_cast<double>(static_cast<float>(1 << (2 * p.left_shift)) * q.out.scale));
    q.set_activation_range(activation::none, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, kernel::reference::logic::squared_difference);
  }
  // int8 and int16: TFLM's SquaredDifference of quantized operands (the rescaled difference squared in int32:
  // at most 2^30 at int16, requantized); int32: (a - b)^2 wrapping as TFLite's int32 arithmetic does on its
  // targets.
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    namespace i8 = kernel::reference::int8;
    namespace q = ctnn::detail::quant;
    if (p->type == dtype::i32) {
      const auto* a = static_cast<const std::int32_t*>(operands[0]);
      const auto* b = static_cast<const std::int32_t*>(operands[1]);
      auto* out = static_cast<std::int32_t*>(result);
      kernel::reference::detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        const auto difference = static_cast<std::uint32_t>(q::wrapping_sub(a[ia], b[ib]));
        out[i] = static_cast<std::int32_t>(difference * difference);
      });
      return;
    }
    run_quantized(p, operands, result, [&](std::int32_t a, std::int32_t b) {
      const std::int32_t difference = i8::scaled_input(p, a, p->input_offset, p->input_multiplier, p->input_shift) -
                                      i8::scaled_input(p, b, p->input2_offset, p->input2_multiplier, p->input2_shift);
      return i8::requantize_clamped(p, difference * difference, p->output_multiplier, p->output_shift);
    });
  }
};

}  // namespace ctnn::ops
