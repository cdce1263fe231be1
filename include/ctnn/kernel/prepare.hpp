#pragma once
// The kernels' Prepare step (as TFLite calls it): the compile-time parameters (kernel_params) of the call
// that computes a graph op: shapes, window, axes and, for quantized ops, the integer recipe's offsets,
// multipliers, shifts and activation range (TFLite's or ONNX's, by the module's requantization policy).
// pass::lower_te calls it for every op; kernel::module_runner for folded constants it evaluates.
#include <bit>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/onnx_quant/params.hpp>

namespace ctnn::kernel {

namespace detail {

// Whether two tensors share one (per-tensor) quantization.
constexpr bool same_quantization(const quantization& a, const quantization& b) {
  return a.scale == b.scale && a.zero_point == b.zero_point;
}

// The quantized fields of an int8 kernel (or of a float32 -> int8 quantize), computed as TFLite's
// Prepare functions compute them (TFLM's reference kernels), so that the kernels are bit-exact with TFLM.
// Offsets are negated zero points (output_offset: the output's zero point); multiplier/shift pairs are
// QuantizeMultiplier's; activation_min/max are CalculateActivationRangeQuantized's. Per op:
//   conv2d, depthwise_conv2d: per_channel = 1 always (TFLM broadcasts a per-tensor weight scale): the
//       executor passes per-output-channel multipliers, double(input) * double(weight[c]) / double(output)
//       (runtime/requantization.hpp);
//   dense: per-channel weights as conv; per-tensor: output_multiplier from
//       double(float(input_scale * weight_scale)) / double(output_scale) (GetQuantizedConvolutionMultipler);
//   max_pool, avg_pool, global_avg_pool: only the activation range (input and output share a quantization);
//   add: left_shift = 20; input/input2 multipliers scale / (2 * max scale), output multiplier
//       2 * max scale / (2^20 * output scale), all with shift <= 0;
//   mul: output multiplier input_scale * input2_scale / output_scale;
//   relu: output multiplier input_scale / output_scale, activation_min = output zero, max 127;
//   relu6: activation_min/max = quantized 0 and 6 in the *input's* quantization (a raw clamp, as TFLM);
//   clip: activation_min/max = its bounds in the input's quantization (the raw integers without a scale);
//   sigmoid, tanh: input_multiplier/input_shift = frexp of input_scale * 2^27 (4 integer bits);
//   softmax: input_multiplier/input_shift from beta * input_scale * 2^26 (5 integer bits), beta = 1;
//   concat: per_channel = 1 when an input's quantization differs from the output's (the executor passes
//       that input's float scale and bias, TFLite's ConcatenationWithScaling);
//   pad: output_offset = the fill value quantized with the output's scale and zero point;
//   quantize: axis = the output dtype; from f32: output_offset, pad_value_bits = output scale (float
//       bits); from i8: output multiplier input_scale / output_scale;
//   dequantize: axis = the output dtype; input_offset, pad_value_bits = input scale (float bits);
//   mean: output multiplier input_scale / output_scale; left_shift = 1 when input and output share one
//       quantization (TFLM then sums and divides, truncating).
template <class Module>
constexpr void fill_quantized_params(const Module& m, const node& n, kernel_params& p) {
  namespace q = ctnn::detail::quant;
  const quantization& in = m.tensor_at(n.inputs[0]).quant;
  const quantization& out = m.tensor_at(n.output).quant;
  const auto set_multiplier = [](std::int32_t& multiplier, std::int32_t& shift, double real) {
    const q::quantized_multiplier qm = q::quantize_multiplier(real);
    multiplier = qm.multiplier;
    shift = qm.shift;
  };
  const auto set_activation_range = [&](activation fused) {
    const q::activation_bounds range = q::quantized_activation_range(fused, out.scale, out.zero_point);
    p.activation_min = range.min;
    p.activation_max = range.max;
  };
  p.input_offset = q::wrapping_neg(in.zero_point);  // wrapping: a zero point may be INT32_MIN
  p.output_offset = out.zero_point;
  switch (n.kind) {
    case op_kind::conv2d:
    case op_kind::depthwise_conv2d:
      p.weights_offset = q::wrapping_neg(m.tensor_at(n.inputs[1]).quant.zero_point);
      p.per_channel = 1;
      set_activation_range(n.attrs.fused);
      break;
    case op_kind::dense: {
      const quantization& w = m.tensor_at(n.inputs[1]).quant;
      p.weights_offset = q::wrapping_neg(w.zero_point);
      if (w.per_channel()) p.per_channel = 1;
      else set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(in.scale * w.scale) / static_cast<double>(out.scale));
      set_activation_range(n.attrs.fused);
      break;
    }
    case op_kind::max_pool:
    case op_kind::avg_pool:
    case op_kind::global_avg_pool:
      set_activation_range(n.attrs.fused);
      break;
    case op_kind::add: {
      const quantization& in2 = m.tensor_at(n.inputs[1]).quant;
      p.input2_offset = q::wrapping_neg(in2.zero_point);
      p.left_shift = 20;
      const double twice_max_input_scale = 2 * static_cast<double>(in.scale > in2.scale ? in.scale : in2.scale);
      set_multiplier(p.input_multiplier, p.input_shift, static_cast<double>(in.scale) / twice_max_input_scale);
      set_multiplier(p.input2_multiplier, p.input2_shift, static_cast<double>(in2.scale) / twice_max_input_scale);
      set_multiplier(p.output_multiplier, p.output_shift,
                     twice_max_input_scale / ((1 << p.left_shift) * static_cast<double>(out.scale)));
      set_activation_range(n.attrs.fused);
      break;
    }
    case op_kind::mul: {
      const quantization& in2 = m.tensor_at(n.inputs[1]).quant;
      p.input2_offset = q::wrapping_neg(in2.zero_point);
      set_multiplier(p.output_multiplier, p.output_shift,
                     static_cast<double>(in.scale) * static_cast<double>(in2.scale) / static_cast<double>(out.scale));
      set_activation_range(n.attrs.fused);
      break;
    }
    case op_kind::relu: {
      set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(in.scale) / static_cast<double>(out.scale));
      const std::int64_t zero = out.zero_point + q::round_to_int(0.0f / out.scale);
      p.activation_min = zero > -128 ? static_cast<std::int32_t>(zero) : -128;
      p.activation_max = 127;
      break;
    }
    case op_kind::relu6:
      p.activation_min = in.zero_point;
      p.activation_max = q::float_to_int8(6.0f, in.scale, in.zero_point);
      break;
    case op_kind::clip: {
      // A raw clamp, as relu6: the bounds in the input's quantization; an int8 tensor without a scale
      // holds plain integers (an ONNX Clip of int8), whose bounds are the integers themselves.
      const auto raw_bound = [&](float bound) -> std::int32_t {
        const float raw = in.scale == 0.0f ? bound : bound / in.scale;
        if (raw <= -256.0f) return -128;  // beyond int8 whatever the zero point (also +-inf, no bound)
        if (raw >= 256.0f) return 127;
        return q::float_to_int8(bound, in.scale == 0.0f ? 1.0f : in.scale, in.scale == 0.0f ? 0 : in.zero_point);
      };
      p.activation_min = raw_bound(n.attrs.clip_min);
      p.activation_max = raw_bound(n.attrs.clip_max);
      break;
    }
    case op_kind::sigmoid:
    case op_kind::tanh: {
      const q::quantized_multiplier qm = q::logistic_tanh_input_multiplier(in.scale);
      p.input_multiplier = qm.multiplier;
      p.input_shift = qm.shift;
      break;
    }
    case op_kind::softmax: {
      const q::quantized_multiplier qm = q::softmax_input_multiplier(1.0, static_cast<double>(in.scale), 5);
      p.input_multiplier = qm.multiplier;
      p.input_shift = qm.shift;
      break;
    }
    case op_kind::concat:
      for (std::int32_t i = 0; i < n.input_count; ++i)
        if (!same_quantization(m.tensor_at(n.inputs[static_cast<std::size_t>(i)]).quant, out)) p.per_channel = 1;
      break;
    case op_kind::pad:
      p.output_offset = q::float_to_int8(n.attrs.pad_value, out.scale, out.zero_point);
      break;
    case op_kind::quantize:
      p.axis = static_cast<std::int32_t>(m.tensor_at(n.output).type);
      if (p.type == dtype::f32) p.pad_value_bits = std::bit_cast<std::uint32_t>(out.scale);
      else set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(in.scale) / static_cast<double>(out.scale));
      break;
    case op_kind::dequantize:
      p.axis = static_cast<std::int32_t>(m.tensor_at(n.output).type);
      p.pad_value_bits = std::bit_cast<std::uint32_t>(in.scale);
      break;
    case op_kind::mean:
      set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(in.scale) / static_cast<double>(out.scale));
      p.left_shift = same_quantization(in, out) ? 1 : 0;
      break;
    case op_kind::reshape:
    case op_kind::transpose:
    case op_kind::batch_norm:
    case op_kind::batch_matmul:  // float32 only (kernel::has_kernel)
    case op_kind::crop:          // byte copies: input and output share their quantization
    case op_kind::paste:
      break;
  }
}

}  // namespace detail

// Whether an op reads or writes int8 (its kernel then needs the tensors' quantization).
template <class Module>
constexpr bool is_quantized_op(const Module& m, const node& n) {
  return m.tensor_at(n.inputs[0]).type == dtype::i8 || m.tensor_at(n.output).type == dtype::i8;
}

// An int8 op whose kernel cannot be prepared: a quantized operand without a scale, or a fused activation
// other than relu/relu6. Returns the tensor (or -2 for the activation) at fault, -1 if none.
template <class Module>
constexpr std::int32_t unpreparable_operand(const Module& m, const node& n) {
  if (n.attrs.fused != activation::none && n.attrs.fused != activation::relu && n.attrs.fused != activation::relu6) return -2;
  const std::int32_t weights = n.kind == op_kind::conv2d || n.kind == op_kind::depthwise_conv2d || n.kind == op_kind::dense ? 1 : -1;
  for (std::int32_t k = 0; k < n.input_count; ++k) {
    const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
    if (t < 0 || m.tensor_at(t).type != dtype::i8) continue;
    if (k == weights ? !m.tensor_at(t).quant.quantized() : m.tensor_at(t).quant.scale == 0.0f) return t;
  }
  if (m.tensor_at(n.output).type == dtype::i8 && m.tensor_at(n.output).quant.scale == 0.0f) return n.output;
  return -1;
}

// An op with ONNX's integer semantics (the module's policy is onnx and an ONNX integer kernel exists for
// its types; conv2d and dense in ONNX's layouts): kernel/reference/onnx_quant/params.hpp fills its fields.
template <class Module>
constexpr bool is_onnx_integer_op(const Module& m, const node& n) {
  const bool layout_ok = (n.kind != op_kind::conv2d && n.kind != op_kind::dense) || n.attrs.layout == data_layout::onnx;
  return m.requantization == requantization_policy::onnx && layout_ok &&
         reference::onnx_quant::has_kernel(n.kind, m.tensor_at(n.inputs[0]).type, m.tensor_at(n.output).type);
}

// The parameters of the kernel that computes op `n` of `m` (its shapes and types must be inferred).
template <class Module>
constexpr kernel_params prepare_params(const Module& m, const node& n) {
  kernel_params p{};
  p.kind = n.kind;
  p.type = m.tensor_at(n.inputs[0]).type;
  p.fused = n.attrs.fused;
  p.in = m.tensor_at(n.inputs[0]).dims;
  p.out = m.tensor_at(n.output).dims;
  switch (n.kind) {
    case op_kind::conv2d:
    case op_kind::depthwise_conv2d:
    case op_kind::max_pool:
    case op_kind::avg_pool:
      p.win = n.attrs.win;
      p.groups = n.attrs.groups;
      p.depth_multiplier = n.attrs.depth_multiplier;
      p.has_bias = n.input_count > 2 && n.inputs[2] >= 0;
      break;
    case op_kind::dense:
      p.has_bias = n.input_count > 2 && n.inputs[2] >= 0;
      break;
    case op_kind::add:
    case op_kind::mul:
    case op_kind::batch_matmul:
      p.in2 = m.tensor_at(n.inputs[1]).dims;
      break;
    case op_kind::softmax:
      p.axis = n.attrs.axis;
      break;
    case op_kind::concat:
      p.axis = n.attrs.axis;
      p.concat_count = n.input_count;
      for (std::int32_t i = 0; i < n.input_count; ++i)
        p.concat_extents[static_cast<std::size_t>(i)] = m.tensor_at(n.inputs[static_cast<std::size_t>(i)]).dims[n.attrs.axis];
      break;
    case op_kind::pad:
      p.pads = n.attrs.pads;
      p.pad_value_bits = std::bit_cast<std::uint32_t>(n.attrs.pad_value);
      p.fill_mode = n.attrs.fill_mode;
      break;
    case op_kind::mean:
      p.axis = static_cast<std::int32_t>(n.attrs.reduce_axes);  // the kernel reads the reduced axes as a bit mask
      break;
    case op_kind::transpose:
      p.perm = n.attrs.perm;
      break;
    case op_kind::crop:
    case op_kind::paste:
      p.pads = n.attrs.pads;  // the window's row and column at [2] and [4]
      break;
    case op_kind::quantize:
    case op_kind::dequantize:
      break;
    case op_kind::batch_norm:
      p.pad_value_bits = std::bit_cast<std::uint32_t>(n.attrs.epsilon);  // the kernel's one float parameter
      break;
    case op_kind::clip:
      p.clip_min_bits = std::bit_cast<std::uint32_t>(n.attrs.clip_min);
      p.clip_max_bits = std::bit_cast<std::uint32_t>(n.attrs.clip_max);
      break;
    case op_kind::global_avg_pool:
    case op_kind::relu:
    case op_kind::relu6:
    case op_kind::sigmoid:
    case op_kind::tanh:
    case op_kind::reshape:
      break;
  }
  if (is_onnx_integer_op(m, n)) reference::onnx_quant::fill_params(m, n, p);
  else if (is_quantized_op(m, n)) detail::fill_quantized_params(m, n, p);
  return p;
}


}  // namespace ctnn::kernel
