#pragma once
// compute_requantization: every integer recipe of a quantized call, in one place (docs/design.md §4). For
// each call of an int8 op (TFLite's recipes) or of an ONNX integer op (QLinear*/ConvInteger/Quantize/
// Dequantize), it sets the kernel_params fields the kernel reads (offsets, multipliers, shifts, activation
// range; ONNX: layouts, element types, scales as float bits, per-axis counts) and records what a table
// that does not fit there is computed from (kernel_call::requantization). The runtime materialises those
// tables with the functions below and decides nothing (runtime/requantization.hpp).
//
// lower_te runs it on each call as it lowers it (one constant evaluation); as a pass of its own it
// recomputes every call from the tensors' quantization and rebuilds the kernel table, e.g. after a pass
// of yours changed a scale.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/requantization_recipe.hpp>
#include <ctnn/kernel/prepare.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>
#include <ctnn/pass/detail/kernel_table.hpp>

namespace ctnn::pass {

namespace requantization {

// ---------------------------------------------------------------------------------------------------
// TFLite (int8), as TFLite's Prepare functions compute it (TFLM's reference kernels), so that the kernels
// are bit-exact with TFLM. Offsets are negated zero points (output_offset: the output's zero point);
// multiplier/shift pairs are QuantizeMultiplier's; activation_min/max are
// CalculateActivationRangeQuantized's. Per op:
//   every op kind (ops/<kind>.hpp: conv2d, dense, add, mul, the pools, the activations, quantize,
//       dequantize, ...): its descriptor's `requantize`, and its `table_recipe`.
template <class Module>
constexpr void set_tflite_fields(const Module& m, const node& n, kernel_params& p) {
  namespace q = ctnn::detail::quant;
  const quantization& in = m.tensor_at(n.inputs[0]).quant;
  const quantization& out = m.tensor_at(n.output).quant;
  const auto same_quantization = [](const quantization& a, const quantization& b) {
    return a.scale == b.scale && a.zero_point == b.zero_point;
  };
  p.input_offset = q::wrapping_neg(in.zero_point);  // wrapping: a zero point may be INT32_MIN
  p.output_offset = out.zero_point;
  ops::quantized_operands operands{in, {}, out};
  if (n.input_count > 1 && n.inputs[1] >= 0) operands.in2 = m.tensor_at(n.inputs[1]).quant;
  for (std::int32_t i = 0; i < n.input_count; ++i) {
    const std::int32_t t = n.inputs[static_cast<std::size_t>(i)];
    if (t >= 0) operands.operand[static_cast<std::size_t>(i)] = m.tensor_at(t).quant;
    if (t >= 0 && !same_quantization(m.tensor_at(t).quant, out)) operands.inputs_quantized_as_result = false;
  }
  ops::visit(n.kind, [&](auto d) { d.requantize(operands, n, p); });  // its recipe (ops/descriptor.hpp)
}

// ---------------------------------------------------------------------------------------------------
// ONNX's integer ops (kernel_params::requantization == onnx; kernel/reference/onnx_quant/kernels.hpp),
// from what the importer (frontend/onnx/quantized.hpp) put in the nodes and tensors. Float scales,
// round half to even, saturate: no Q31 multipliers.
//   conv2d, dense (layout onnx, onnx_nhwc): x's quantization gives input_offset (-x_zero_point) and the input scale,
//     the result's its zero point (output_offset) and scale (for int32 results: none); the weights'
//     per-tensor scale and zero point (weights_offset) are their tensor's quantization, per-channel ones
//     operands 3 and 4 (onnx.scale_count, onnx.zero_point_count: their element counts);
//     onnx.multiplier_bits = float(x_scale * w_scale) / y_scale for a per-tensor weight scale (per channel
//     the kernel computes it the same way from operand 3). The result's type is `out_type` (prepare_params').
//   quantize: the result's scale (onnx.output_scale_bits) and zero point (output_offset), or per axis
//     (`axis`) operands 1 and 2 (their counts: ops/quantize.hpp's requantize_onnx).
//   dequantize: the input's scale (onnx.input_scale_bits) and zero point (input_offset = -zero point), or
//     per axis operands 1 and 2.
//   add, mul, max_pool, pad, transpose, reshape on plain integers (ONNX's integer arithmetic, no
//     quantization): only the policy; the result keeps the input's type.
// Whether a constant 8-bit tensor holds one value throughout, and which.
struct uniform_value {
  bool uniform = false;
  std::int32_t value = 0;
};
template <class Module>
constexpr uniform_value uniform_8_bit_constant(const Module& m, std::int32_t t) {
  if (t < 0) return {};
  const tensor& z = m.tensor_at(t);
  const bool readable = z.data.i8 != nullptr || z.data.bytes != nullptr;
  if (z.role != tensor_role::constant || !readable || (z.type != dtype::i8 && z.type != dtype::u8)) return {};
  const auto at = [&](std::int64_t k) -> std::int32_t {
    const auto byte = z.data.i8 != nullptr ? static_cast<signed char>(z.data.i8[k]) : static_cast<signed char>(z.data.bytes[k]);
    return z.type == dtype::u8 ? static_cast<std::int32_t>(static_cast<unsigned char>(byte))
                               : static_cast<std::int32_t>(static_cast<signed char>(byte));
  };
  const std::int64_t count = z.dims.elements();
  if (count < 1) return {};
  for (std::int64_t k = 1; k < count; ++k)
    if (at(k) != at(0)) return {};
  return {true, at(0)};
}

template <class Module>
constexpr void set_onnx_fields(const Module& m, const node& n, kernel_params& p) {
  const tensor& x = m.tensor_at(n.inputs[0]);
  const tensor& y = m.tensor_at(n.output);
  const auto elements_of_operand = [&](std::int32_t k, std::int32_t absent) {
    const std::int32_t t = k < n.input_count ? n.inputs[static_cast<std::size_t>(k)] : -1;
    return t >= 0 ? static_cast<std::int32_t>(m.tensor_at(t).dims.elements()) : absent;
  };
  p.requantization = requantization_policy::onnx;
  p.input_offset = -x.quant.zero_point;
  p.output_offset = y.quant.zero_point;
  p.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(x.quant.scale);
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(y.quant.scale);
  switch (n.kind) {
    case op_kind::conv2d:
    case op_kind::dense: {
      const tensor& w = m.tensor_at(n.inputs[1]);
      p.onnx.layout = n.attrs.layout;
      p.onnx.weights_type = w.type;
      p.weights_offset = -w.quant.zero_point;
      p.onnx.scale_count = elements_of_operand(3, w.quant.scale != 0.0f ? 1 : 0);
      p.onnx.zero_point_count = elements_of_operand(4, 1);
      // Per-channel weight zero points that are all equal (symmetric weights: all 0) are one per tensor,
      // which the vectorised kernels take (kernel/simd/i8/onnx_conv.hpp); the reference reads either.
      if (p.onnx.zero_point_count > 1) {
        if (const uniform_value z = uniform_8_bit_constant(m, n.inputs[4]); z.uniform) {
          p.onnx.zero_point_count = 1;
          p.weights_offset = -z.value;
        }
      }
      if (p.onnx.scale_count == 1 && y.type != dtype::i32)
        p.onnx.multiplier_bits = std::bit_cast<std::uint32_t>(
            kernel::reference::onnx_quant::output_multiplier(x.quant.scale, w.quant.scale, y.quant.scale));
      if (n.kind == op_kind::dense) p.in2 = w.dims;
      break;
    }
    default:  // an op kind with a descriptor: its ONNX recipe's own fields (quantize, dequantize)
      ops::visit(n.kind, [&](auto d) { d.requantize_onnx(m, n, p); });
      break;
  }
}

// ---------------------------------------------------------------------------------------------------
// The tables (what does not fit in kernel_params), computed where the runtime materialises them.

template <std::size_t N>
struct channel_multipliers {
  std::array<std::int32_t, N> multiplier{};
  std::array<std::int32_t, N> shift{};
};

template <std::size_t N>
struct concat_input_rescaling {
  std::array<float, N> scale{};
  std::array<float, N> bias{};
  std::array<std::int32_t, N> requantize{};  // 1: this input's quantization differs from the output's
};

// TFLite (PopulateConvolutionQuantizationParams): per output channel c, QuantizeMultiplier of
// double(input_scale) * double(weight_scale[c]) / double(output_scale); a per-tensor weight scale is
// broadcast.
template <std::size_t Channels>
constexpr channel_multipliers<Channels> channel_multipliers_of(float input_scale, const quantization& weights,
                                                               float output_scale) {
  channel_multipliers<Channels> r{};
  for (std::size_t c = 0; c < Channels; ++c) {
    const auto qm = kernel::channel_requantization(input_scale, weights, static_cast<std::int32_t>(c), output_scale);
    r.multiplier[c] = qm.multiplier;
    r.shift[c] = qm.shift;
  }
  return r;
}

// The same, from a channel_multipliers recipe alone (no module: calls and executors with equal scales
// share one table).
template <requantization_recipe R>
constexpr channel_multipliers<static_cast<std::size_t>(R.channels)> channel_multipliers_of() {
  quantization weights{};
  weights.scale = std::bit_cast<float>(R.weight_scale_bits);
  weights.channel_count = R.weight_channels;
  weights.scales = R.weight_scales;
  if constexpr (R.weight_scale_file != nullptr) weights.scale_bytes = R.weight_scale_file + R.weight_scale_offset;
  return channel_multipliers_of<static_cast<std::size_t>(R.channels)>(std::bit_cast<float>(R.input_scale_bits), weights,
                                                                       std::bit_cast<float>(R.output_scale_bits));
}

// TFLite's ConcatenationWithScaling: per input, scale = input_scale * (1 / output_scale) and
// bias = -input_zero_point * scale, in float.
template <std::size_t Inputs, class Module>
constexpr concat_input_rescaling<Inputs> concat_input_rescaling_of(const Module& m, const kernel_call& call) {
  concat_input_rescaling<Inputs> r{};
  for (std::size_t i = 0; i < Inputs; ++i) {
    const auto input = kernel::concat_input_requantization_of(m.tensor_at(call.operands[i]).quant, m.tensor_at(call.result).quant);
    r.scale[i] = input.scale;
    r.bias[i] = input.bias;
    r.requantize[i] = input.requantize;
  }
  return r;
}

// What call `call`'s table is computed from (its parameters already set).
template <class Module>
constexpr requantization_recipe recipe_of(const Module& m, const kernel_call& call) {
  const kernel_params& p = call.params;
  requantization_recipe r{};
  if (p.type == dtype::i8) ops::visit(p.kind, [&](auto d) { r = d.table_recipe(p); });
  else if (p.type != dtype::i16) return r;  // int16: only the per-channel tables of the 16x8 kernels
  if (r.table != requantization_table::none || p.per_channel == 0) return r;
  const tensor& weights = m.tensor_at(call.operands[1]);
  const quantization& w = weights.quant;
  r.table = requantization_table::channel_multipliers;
  r.channels = p.out.last();
  r.input_scale_bits = std::bit_cast<std::uint32_t>(m.tensor_at(call.operands[0]).quant.scale);
  r.output_scale_bits = std::bit_cast<std::uint32_t>(m.tensor_at(call.result).quant.scale);
  r.weight_scale_bits = std::bit_cast<std::uint32_t>(w.scale);
  if (w.per_channel()) {
    r.weight_channels = w.channel_count;
    r.weight_scales = w.scales;
    if (w.scales == nullptr) {
      // Scales in a model file's bytes: keyed by the file and the offset; bytes in no named file cannot
      // be a template argument, so that table is the call's own.
      if (weights.data.file == nullptr || w.scale_bytes == nullptr) {
        requantization_recipe own{};
        own.channels = r.channels;
        own.table = requantization_table::channel_multipliers_of_call;
        return own;
      }
      r.weight_scale_file = weights.data.file;
      r.weight_scale_offset = static_cast<std::size_t>(w.scale_bytes - weights.data.file);
    }
  }
  return r;
}

}  // namespace requantization

struct compute_requantization : detail::in_place_pass<compute_requantization> {
  static constexpr fact requires_facts = fact::kernels_lowered;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      const node& n = m.node_at(call.node);
      // Back to the structural parameters, keeping what later passes decided, then the recipes anew.
      kernel_params params = kernel::prepare_params(m, n);
      params.in_place = call.params.in_place;
      params.choice = call.params.choice;
      call.params = params;
      requantize_call(m, n, call);
    }
    detail::rebuild_kernel_table(m);
  }

  // The quantization of one call of op `n`, whose parameters are kernel::prepare_params' (the structural
  // ones): sets the fields by the module's policy and records the call's table recipe.
  template <class Module>
  static constexpr void requantize_call(const Module& m, const node& n, kernel_call& call) {
    if (kernel::is_onnx_integer_op(m, n)) requantization::set_onnx_fields(m, n, call.params);
    else if (kernel::is_quantized_op(m, n)) requantization::set_tflite_fields(m, n, call.params);
    call.requantization = requantization::recipe_of(m, call);
  }
};

}  // namespace ctnn::pass
