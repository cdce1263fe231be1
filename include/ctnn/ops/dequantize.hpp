#pragma once
// dequantize: a quantized tensor (int8, uint8, int16) to float32 (TFLite DEQUANTIZE; ONNX DequantizeLinear through
// the ONNX integer kernels). The descriptor of op_kind::dequantize (ops/descriptor.hpp).
#include <bit>
#include <cstdint>

#include <ctnn/kernel/reference/quantize.hpp>
#include <ctnn/ops/quantize.hpp>

namespace ctnn::ops {

struct dequantize : type_conversion {
  static constexpr op_kind kind = op_kind::dequantize;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::dequantize;
  static constexpr bool has_kernel(dtype type) { return type == dtype::i8 || type == dtype::u8 || type == dtype::i16; }
  static constexpr bool has_result_kernel(dtype, dtype out) { return out == dtype::f32; }

  // TFLM's DequantizePrepare: the input's scale and zero point.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.set(quantize_fields{std::bit_cast<std::uint32_t>(q.in.scale)});
  }

  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p->type, [&]<class In>(In) {
      kernel::reference::dequantize(p, static_cast<const In*>(operands[0]), static_cast<float*>(result));
    });
  }
};

}  // namespace ctnn::ops
