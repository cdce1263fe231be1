#pragma once
// sub: a - b with numpy broadcasting and a fused activation (TFLite SUB, ONNX Sub). The descriptor of
// op_kind::sub (ops/descriptor.hpp).
#include <algorithm>
#include <cstdint>

#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/elementwise.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

struct sub : binary_elementwise {
  static constexpr op_kind kind = op_kind::sub;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::binary;
  // Integers known at import wrap around (ONNX's int64 shape arithmetic).
  static constexpr integer_evaluation on_known_integers{[](std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
  }};

  static constexpr bool has_kernel(dtype type) { return binary_elementwise::has_kernel(type) || type == dtype::i16; }

  // TFLM's CalculateOpDataSub (int8, int16): left_shift 20 (int16: 15); each input rescaled by its scale / (2 *
  // the larger input scale), the difference by that over 2^left_shift * the output scale. Unlike ADD's,
  // these ratios are computed in float, then widened (bit-exactness needs the same roundings).
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    p.left_shift = p.type == dtype::i16 ? 15 : 20;
    const float twice_max_input_scale = 2 * std::max(q.in.scale, q.in2.scale);
    q.set_multiplier(p.input_multiplier, p.input_shift, static_cast<double>(q.in.scale / twice_max_input_scale));
    q.set_multiplier(p.input2_multiplier, p.input2_shift, static_cast<double>(q.in2.scale / twice_max_input_scale));
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     static_cast<double>(twice_max_input_scale / (static_cast<float>(1 << p.left_shift) * q.out.scale)));
    q.set_activation_range(n.attrs.fused, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, [](float x, float y) { return x - y; });
  }
  // TFLM's reference SUB (int8, int16): each input scaled as ADD's, then raw_sub = scaled1 - scaled2 (two's
  // complement, as TFLite's int32 on its targets), rescaled to the output, clamped.
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    namespace i8 = kernel::reference::int8;
    run_quantized(p, operands, result, [&](std::int32_t a, std::int32_t b) {
      const std::int32_t scaled1 = i8::scaled_input(p, a, p->input_offset, p->input_multiplier, p->input_shift);
      const std::int32_t scaled2 = i8::scaled_input(p, b, p->input2_offset, p->input2_multiplier, p->input2_shift);
      return i8::requantize_clamped(p, ctnn::detail::quant::wrapping_sub(scaled1, scaled2), p->output_multiplier,
                                    p->output_shift);
    });
  }
};

}  // namespace ctnn::ops
