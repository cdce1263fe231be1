#pragma once
// softmax: exp(x - max) / sum over the last axis (TFLite SOFTMAX with beta 1; ONNX Softmax, whose other
// axes the importer moves last). The descriptor of op_kind::softmax (ops/descriptor.hpp); the SIMD int8
// kernel is kernel/simd/i8/softmax.hpp; the int16 one TFLM's tables (kernel/reference/int16_softmax.hpp).
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int16_softmax.hpp>
#include <ctnn/kernel/reference/int8/softmax.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct softmax : prints_axis<op_defaults> {
  static constexpr op_kind kind = op_kind::softmax;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8 || type == dtype::i16; }
  // TFLM's int16 kernel: zero points 0, the result's scale 2^-15 (TFLM allows 0.1 % off it, ctnn 0.07 %: a
  // power of two within 1e-3 in log2, as LOGISTIC's check).
  static constexpr bool int16_symmetric = true;
  static constexpr std::int32_t int16_result_exponent = -15;

  // The result is shaped as the input; the axis is the last one (recorded for the printer and the kernel).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    n.attrs.axis = in.rank - 1;
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.axis = n.attrs.axis;
  }
  // TFLM's SoftmaxPrepare (beta 1): int8, the input multiplier of input_scale with 5 integer bits of the
  // scaled difference, its shift also setting the input radius; int16, QuantizeMultiplier of input_scale /
  // (10 / 65535) (the exp table's input range).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    namespace quant = ctnn::detail::quant;
    const quant::quantized_multiplier qm =
        p.type == dtype::i16 ? quant::quantize_multiplier(static_cast<double>(q.in.scale) * 1.0 / (10.0 / 65535.0))
                             : quant::softmax_input_multiplier(1.0, static_cast<double>(q.in.scale), 5);
    p.input_multiplier = qm.multiplier;
    p.input_shift = qm.shift;
  }
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) {
    return {recipe.input_shift, recipe.type != dtype::i16};
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::softmax(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      if constexpr (std::is_same_v<T, std::int16_t>)
        kernel::reference::int16::softmax(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
      else
        kernel::reference::int8::softmax(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
