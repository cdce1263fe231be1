#pragma once
// lower_te: replaces each graph op by a call of a kernel with compile-time parameters (kernel_params),
// including the scratch the kernel declares (kernel/scratch.hpp). Graph nodes stay in the module next to
// the calls, so later passes see both levels.
#include <array>
#include <bit>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/reference/onnx_quant/params.hpp>
#include <ctnn/kernel/scratch.hpp>

namespace ctnn::pass {

namespace detail {

// A cheap fingerprint of kernel params, so that finding structurally equal kernels compares full params
// only on a fingerprint match (keeps lower_te O(calls x kernels) in cheap steps; DESIGN §2).
constexpr std::uint32_t fingerprint(const kernel_params& p) {
  std::uint32_t h = 2166136261u;
  const auto mix = [&h](std::int64_t v) { h = (h ^ static_cast<std::uint32_t>(v)) * 16777619u; };
  mix(static_cast<std::int64_t>(p.kind));
  mix(static_cast<std::int64_t>(p.fused));
  for (std::int32_t d = 0; d < p.in.rank; ++d) mix(p.in[d]);
  for (std::int32_t d = 0; d < p.out.rank; ++d) mix(p.out[d]);
  mix(p.win.kernel_h * 131 + p.win.stride_h * 17 + p.win.pad_top);
  mix(p.win.kernel_w * 131 + p.win.stride_w * 17 + p.win.pad_left);
  mix(p.output_multiplier ^ p.input_offset);
  return h;
}

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
      break;
  }
}

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
         kernel::reference::onnx_quant::has_kernel(n.kind, m.tensor_at(n.inputs[0]).type, m.tensor_at(n.output).type);
}

template <class Module>
constexpr kernel_params kernel_params_of(const Module& m, const node& n) {
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
  if (is_onnx_integer_op(m, n)) kernel::reference::onnx_quant::fill_params(m, n, p);
  else if (is_quantized_op(m, n)) fill_quantized_params(m, n, p);
  return p;
}

}  // namespace detail

struct lower_te {
  static constexpr fact requires_facts = fact::shapes_inferred;
  static constexpr fact establishes = fact::kernels_lowered;

  template <class Module>
  static constexpr Module run(Module m) {
    return with_scratch<kernel::scratch_rules>::run(m);
  }

  // The same pass with other scratch rules than the kernels' (kernel::scratch_rule_list<...>): how a
  // test or a target with kernels of its own declares their scratch.
  template <class ScratchRules>
  struct with_scratch {
    static constexpr fact requires_facts = fact::shapes_inferred;
    static constexpr fact establishes = fact::kernels_lowered;
    template <class Module>
    static constexpr Module run(Module m);
  };
};

template <class ScratchRules>
template <class Module>
constexpr Module lower_te::with_scratch<ScratchRules>::run(Module m) {
  std::array<std::uint32_t, Module::node_capacity> fingerprints{};
  m.call_count = 0;
  m.kernel_count = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    const bool onnx_integer = detail::is_onnx_integer_op(m, n);
    if (!onnx_integer && !kernel::has_kernel(n.kind, m.tensor_at(n.inputs[0]).type)) {
      m.fail({error_code::unsupported_dtype, i, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
              static_cast<std::int64_t>(m.tensor_at(n.inputs[0]).type), 0});
      return m;
    }
    // An int8 op needs the quantization of its tensors (value_b: the tensor at fault + 1; -1: the fused
    // activation, which int8 kernels can only apply as a clamp).
    // (ONNX's quantized tensors need no scale: ConvInteger's have none.)
    if (m.requantization == requantization_policy::tflite && detail::is_quantized_op(m, n)) {
      if (const std::int32_t fault = detail::unpreparable_operand(m, n); fault != -1) {
        m.fail({error_code::unsupported_dtype, i, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
                static_cast<std::int64_t>(m.tensor_at(n.inputs[0]).type), fault + 1});
        return m;
      }
    }
    kernel_call& c = m.calls[static_cast<std::size_t>(m.call_count++)];
    c = kernel_call{};
    c.node = i;
    c.params = detail::kernel_params_of(m, n);
    c.params.scratch_bytes = ScratchRules::bytes(c.params);  // from the other fields: equal params, equal scratch
    const std::uint32_t print = detail::fingerprint(c.params);
    for (std::int32_t k = 0; k < m.kernel_count && c.kernel < 0; ++k)
      if (fingerprints[static_cast<std::size_t>(k)] == print && m.kernels[static_cast<std::size_t>(k)] == c.params) c.kernel = k;
    if (c.kernel < 0) {
      c.kernel = m.kernel_count++;
      m.kernels[static_cast<std::size_t>(c.kernel)] = c.params;
      fingerprints[static_cast<std::size_t>(c.kernel)] = print;
    }
    c.operands = n.inputs;
    c.operand_count = n.input_count;
    c.result = n.output;
  }
  m.establish(fact::kernels_lowered);
  return m;
}

}  // namespace ctnn::pass
