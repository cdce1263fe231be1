#pragma once
// mul: a * b with numpy broadcasting and a fused activation (TFLite MUL, ONNX Mul). The descriptor of
// op_kind::mul (ops/descriptor.hpp); its float32 fast path: kernel/simd. int8 and int16 (16x8) by TFLM's
// reference recipe.
#include <cstdint>

#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/elementwise.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

struct mul : binary_elementwise {
  static constexpr op_kind kind = op_kind::mul;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::binary;
  // Integers known at import wrap around (ONNX's int64 shape arithmetic).
  static constexpr integer_evaluation on_known_integers{[](std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
  }};

  static constexpr bool has_kernel(dtype type) { return binary_elementwise::has_kernel(type) || type == dtype::i16; }
  // TFLM's CalculateOpDataMul refuses int16 zero points other than 0.
  static constexpr bool int16_symmetric = true;

  // TFLite's MUL Prepare (int8, int16): one multiplier, input_scale * input2_scale / output_scale in double.
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     static_cast<double>(q.in.scale) * static_cast<double>(q.in2.scale) / static_cast<double>(q.out.scale));
    q.set_activation_range(n.attrs.fused, p);
  }

  // ONNX (QLinearMul, a QDQ model's DequantizeLinear -> Mul -> QuantizeLinear): the second input's quantization
  // (binary_elementwise; kernel/reference/onnx_quant/mul.hpp).
  template <class Module>
  static constexpr void requantize_onnx(const Module& m, const node& n, kernel_params& p) {
    second_input_onnx_quantization(m, n, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, [](float x, float y) { return x * y; });
  }
  // int8 and int16: TFLM's MulElementwise (kernel/reference/int8/elementwise.hpp).
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    run_quantized(p, operands, result,
                  [&](std::int32_t a, std::int32_t b) { return kernel::reference::int8::mul_one(p, a, b); });
  }
};

}  // namespace ctnn::ops
