#pragma once
// quantize: a tensor into another element type or quantization (TFLite QUANTIZE: float32 -> int8 or int16;
// int8, int16, int32 -> int8, int16 or int32 requantized, uint8 -> int8 and int8 -> uint8 too; ONNX
// QuantizeLinear through the ONNX integer kernels). The descriptor of op_kind::quantize (ops/descriptor.hpp); dequantize shares its base.
#include <bit>
#include <cstdint>

#include <ctnn/kernel/reference/quantize.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// What quantize and dequantize share: element-wise, one operand (ONNX: also its scale and zero point,
// which the ONNX integer kernels read), the result's element type their attribute (attrs.out_type); the
// kernels computing in float read the quantized side's scale (kernel_params::quantize).
struct type_conversion : unary_elementwise {
  static constexpr operand_range operands{1, 3};
  static constexpr bool result_type_from_attributes = true;

  // ONNX's QuantizeLinear / DequantizeLinear: the axis and the element counts of the scale and zero point
  // operands (1 and 2; per tensor when absent).
  template <class Module>
  static constexpr void requantize_onnx(const Module& m, const node& n, kernel_params& p) {
    const auto elements_of_operand = [&](std::int32_t k) {
      const std::int32_t t = k < n.input_count ? n.inputs[static_cast<std::size_t>(k)] : -1;
      return t >= 0 ? static_cast<std::int32_t>(m.tensor_at(t).dims.elements()) : 1;
    };
    p.axis = n.attrs.axis;
    p.onnx.scale_count = elements_of_operand(1);
    p.onnx.zero_point_count = elements_of_operand(2);
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.put("  to ");
    w.put(name_of(a.out_type));
  }
  template <class Writer>
  static void put_requantization(Writer& w, const kernel_params& p) {
    if (p.quantize().scale_bits == 0) return;
    // The quantized side's type (float32 is the other side of a call with a scale here).
    const dtype quantized = p.type == dtype::f32 ? p.out_type : p.type;
    w.real_field(quantized == dtype::i16 ? ", int16 scale " : quantized == dtype::u8 ? ", uint8 scale " : ", int8 scale ",
                 static_cast<double>(p.quantize().scale()));
  }

  // Calls f(T{}) with the integer type T of a quantized element type (int8, uint8, int16, int32).
  template <class F>
  [[gnu::always_inline]] static void with_integer_type(dtype type, F&& f) {
    if (type == dtype::i16) f(std::int16_t{});
    else if (type == dtype::i32) f(std::int32_t{});
    else if (type == dtype::u8) f(std::uint8_t{});
    else f(std::int8_t{});
  }
};

struct quantize : type_conversion {
  static constexpr op_kind kind = op_kind::quantize;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::quantize;
  static constexpr bool has_kernel(dtype type) {
    return type == dtype::f32 || type == dtype::i8 || type == dtype::u8 || type == dtype::i16 || type == dtype::i32;
  }
  // The pairs TFLM's QUANTIZE runs (quantize_common.cc): uint8 only to and from int8, a model's edges.
  static constexpr bool has_result_kernel(dtype in, dtype out) {
    const bool to_8_or_16 = out == dtype::i8 || out == dtype::i16;
    if (in == dtype::u8) return out == dtype::i8;
    if (in == dtype::f32 || in == dtype::i32) return to_8_or_16;
    if (in == dtype::i8 && out == dtype::u8) return true;
    return (in == dtype::i8 || in == dtype::i16) && (to_8_or_16 || out == dtype::i32);
  }

  // TFLM's PrepareQuantizeReference: from float, the output's scale and zero point (AffineQuantize); from an
  // integer type, QuantizeMultiplier of double(input scale) / double(output scale) (Requantize).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    if (p.type == dtype::f32) p.set(quantize_fields{std::bit_cast<std::uint32_t>(q.out.scale)});
    else q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale) / static_cast<double>(q.out.scale));
  }

  // From float32: the result (int8 or int16) comes through the float kernels' typed result pointer.
  template <class Params>
  [[gnu::always_inline]] static void run_f32(Params p, const float* const* operands, float* result) {
    with_integer_type(p->out_type, [&]<class Out>(Out) {
      kernel::reference::quantize(p, operands[0], static_cast<Out*>(static_cast<void*>(result)));
    });
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p->type, [&]<class In>(In) {
      with_integer_type(p->out_type, [&]<class Out>(Out) {
        kernel::reference::requantize(p, static_cast<const In*>(operands[0]), static_cast<Out*>(result));
      });
    });
  }
};

}  // namespace ctnn::ops
