#pragma once
// div: a / b with numpy broadcasting and a fused activation (TFLite DIV, ONNX Div). The descriptor of
// op_kind::div (ops/descriptor.hpp); kernel/reference/logic.hpp has the arithmetic.
#include <cstdint>
#include <limits>

#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/logic.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

// float32; int8 with TFLite's recipe (TFLM's DivElementwise); integers (TFLite int32, ONNX's plain int8,
// uint8, int16, int32, int64) divided truncating toward zero. The result may overwrite an operand.
struct div : binary_elementwise {
  static constexpr op_kind kind = op_kind::div;
  // Integers known at import divide as the integer kernel does (truncated toward zero).
  static constexpr integer_evaluation on_known_integers{&kernel::reference::logic::divided_integers<std::int64_t>, false, true};
  static constexpr bool plain_integer_kernel = true;
  static constexpr bool has_kernel(dtype type) { return type != dtype::b8; }

  // TFLM's CalculateOpDataDiv (int8): the output multiplier double(float(scale1 / (scale2 * output scale))),
  // the activation range in the output's quantization. Operands without quantization (ONNX's plain int8)
  // keep no recipe: the kernel divides the integers.
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    if (!q.in.quantized() || !q.in2.quantized() || !q.out.quantized()) return;
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     static_cast<double>(q.in.scale / (q.in2.scale * q.out.scale)));
    q.set_activation_range(n.attrs.fused, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, kernel::reference::logic::divided);
  }
  // int8 with a recipe (output_multiplier set: TFLite); otherwise plain integers, clamped by the fused
  // activation as TFLite's int32 DIV does (CalculateActivationRange: relu [0, max], relu6 [0, 6]).
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    namespace logic = kernel::reference::logic;
    if (p->type == dtype::i8 && p->output_multiplier != 0) {
      const auto* a = static_cast<const std::int8_t*>(operands[0]);
      const auto* b = static_cast<const std::int8_t*>(operands[1]);
      auto* out = static_cast<std::int8_t*>(result);
      kernel::reference::detail::for_each_broadcast(
          p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) { out[i] = logic::divide_int8(p, a[ia], b[ib]); });
      return;
    }
    logic::with_element_type(p->type, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_integral_v<T>) {  // not bool_byte
        const auto* a = static_cast<const T*>(operands[0]);
        const auto* b = static_cast<const T*>(operands[1]);
        auto* out = static_cast<T*>(result);
        const T low = p->fused == activation::none ? std::numeric_limits<T>::min() : T{0};
        const T high = p->fused == activation::relu6 ? T{6} : std::numeric_limits<T>::max();
        kernel::reference::detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
          const T quotient = logic::divided_integers(a[ia], b[ib]);
          out[i] = quotient < low ? low : quotient > high ? high : quotient;
        });
      }
    });
  }
};

}  // namespace ctnn::ops
