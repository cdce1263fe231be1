#pragma once
// add: a + b with numpy broadcasting and a fused activation (TFLite ADD, ONNX Add). The descriptor of
// op_kind::add (ops/descriptor.hpp); its fast paths: kernel/simd (f32, i8) and kernel/arm/add.hpp (int8 only:
// int16 calls run the reference kernel, pass/select_kernels.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/elementwise.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

struct add : binary_elementwise {
  static constexpr op_kind kind = op_kind::add;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::binary;
  // Integers known at import wrap around (ONNX's int64 shape arithmetic).
  static constexpr integer_evaluation on_known_integers{[](std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  }};

  static constexpr bool has_kernel(dtype type) { return binary_elementwise::has_kernel(type) || type == dtype::i16; }

  // TFLM's CalculateOpDataAdd (int8, int16): left_shift 20 (int16: 15); each input rescaled by its scale / (2 *
  // the larger input scale), the sum by that over 2^left_shift * the output scale, the ratios in double
  // (SUB's are in float). TFLM's int16 ADD takes any zero points (unlike TFLite's): |x - zero point| <= 65535
  // keeps the shifted input within int32.
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    p.left_shift = p.type == dtype::i16 ? 15 : 20;
    const double twice_max_input_scale = 2 * static_cast<double>(q.in.scale > q.in2.scale ? q.in.scale : q.in2.scale);
    q.set_multiplier(p.input_multiplier, p.input_shift, static_cast<double>(q.in.scale) / twice_max_input_scale);
    q.set_multiplier(p.input2_multiplier, p.input2_shift, static_cast<double>(q.in2.scale) / twice_max_input_scale);
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     twice_max_input_scale / ((1 << p.left_shift) * static_cast<double>(q.out.scale)));
    q.set_activation_range(n.attrs.fused, p);
  }

  // ONNX (QLinearAdd): the second input's quantization (binary_elementwise).
  template <class Module>
  static constexpr void requantize_onnx(const Module& m, const node& n, kernel_params& p) {
    second_input_onnx_quantization(m, n, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, [](float x, float y) { return x + y; });
  }
  // int8 and int16: TFLM's AddElementwise (kernel/reference/int8/elementwise.hpp).
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    run_quantized(p, operands, result,
                  [&](std::int32_t a, std::int32_t b) { return kernel::reference::int8::add_one(p, a, b); });
  }
};

}  // namespace ctnn::ops
