#pragma once
// Per-channel requantization data, computed at compile time (docs/design.md §2, §4): for each call whose kernel
// needs more than kernel_params holds (kernel_params::per_channel != 0), one `inline constexpr` array
// per (module, call), computed in a constant evaluation of its own and placed in .rodata:
//   conv2d, depthwise_conv2d, dense with per-channel weights: per output channel c, QuantizeMultiplier of
//     double(input_scale) * double(weight_scale[c]) / double(output_scale) (TFLite's
//     PopulateConvolutionQuantizationParams; a per-tensor weight scale is broadcast);
//   concat with differently quantized inputs: per input, scale = input_scale * (1 / output_scale) and
//     bias = -input_zero_point * scale in float (TFLite's ConcatenationWithScaling).
// requantization_of<M, C>() is the executor's hook: the kernel::requant_arrays of call C; a conv's table is
// keyed by the scales it is computed from (channel_requantization_v), so executors of one model share it.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn {

namespace detail {

template <std::size_t N>
struct channel_requantization {
  std::array<std::int32_t, N> multiplier{};
  std::array<std::int32_t, N> shift{};
};

template <std::size_t N>
struct input_requantization {
  std::array<float, N> scale{};
  std::array<float, N> bias{};
  std::array<std::int32_t, N> requantize{};
};

constexpr bool has_weights_kind(op_kind k) {
  return k == op_kind::conv2d || k == op_kind::depthwise_conv2d || k == op_kind::dense;
}

// Per output channel, the multiplier and shift of double(input) * double(weight[c]) / double(output).
template <std::size_t Channels>
constexpr channel_requantization<Channels> channel_requantization_of(const quantization& in, const quantization& weights,
                                                                     const quantization& out) {
  channel_requantization<Channels> r{};
  for (std::size_t c = 0; c < Channels; ++c) {
    const float weight_scale = weights.per_channel() ? weights.scale_of(static_cast<std::int32_t>(c)) : weights.scale;
    const quant::quantized_multiplier qm = quant::channel_multiplier(in.scale, weight_scale, out.scale);
    r.multiplier[c] = qm.multiplier;
    r.shift[c] = qm.shift;
  }
  return r;
}

// What the per-channel requantization of a conv / depthwise / dense reads, by value: a key that names
// neither the module nor the executor, so that calls and executors with the same scales share one table
// in .rodata. The weights' per-channel scales are a user array, or a slice of a model file (its first
// byte, a valid template argument, and the offset; see constant_data::file). No padding (a template
// argument).
struct channel_requantization_key {
  const float* scales = nullptr;
  const char* scale_file = nullptr;
  std::size_t scale_offset = 0;
  std::size_t channels = 0;
  std::uint32_t input_scale_bits = 0;
  std::uint32_t output_scale_bits = 0;
  std::uint32_t weight_scale_bits = 0;
  std::int32_t weight_channels = 0;  // 0: one weight scale for all channels
};

template <channel_requantization_key K>
constexpr channel_requantization<K.channels> compute_keyed_requantization() {
  quantization in{}, weights{}, out{};
  in.scale = std::bit_cast<float>(K.input_scale_bits);
  out.scale = std::bit_cast<float>(K.output_scale_bits);
  weights.scale = std::bit_cast<float>(K.weight_scale_bits);
  weights.channel_count = K.weight_channels;
  weights.scales = K.scales;
  if constexpr (K.scale_file != nullptr) weights.scale_bytes = K.scale_file + K.scale_offset;
  return channel_requantization_of<K.channels>(in, weights, out);
}

// The requantization data of call C of module M (an empty struct when it needs none).
template <auto& M, std::size_t C>
constexpr auto compute_requantization() {
  constexpr const kernel_call& call = M.calls[C];
  constexpr kernel_params p = call.params;
  if constexpr (p.per_channel == 0 || p.type != dtype::i8) {
    return channel_requantization<0>{};
  } else if constexpr (has_weights_kind(p.kind)) {
    constexpr auto channels = static_cast<std::size_t>(p.out.last());
    const quantization& in = M.tensor_at(call.operands[0]).quant;
    const quantization& weights = M.tensor_at(call.operands[1]).quant;
    const quantization& out = M.tensor_at(call.result).quant;
    return channel_requantization_of<channels>(in, weights, out);
  } else {
    static_assert(p.kind == op_kind::concat, "ctnn: per-channel requantization for an op kind that has none.");
    constexpr auto inputs = static_cast<std::size_t>(p.concat_count);
    const quantization& out = M.tensor_at(call.result).quant;
    const float inverse_output_scale = 1.0f / out.scale;
    input_requantization<inputs> r{};
    for (std::size_t i = 0; i < inputs; ++i) {
      const quantization& in = M.tensor_at(call.operands[i]).quant;
      r.scale[i] = in.scale * inverse_output_scale;
      r.bias[i] = static_cast<float>(-in.zero_point) * r.scale[i];
      r.requantize[i] = in.scale == out.scale && in.zero_point == out.zero_point ? 0 : 1;
    }
    return r;
  }
}

}  // namespace detail

// The requantization arrays of call C of module M, in .rodata.
template <auto& M, std::size_t C>
inline constexpr auto requantization_v = detail::compute_requantization<M, C>();

template <detail::channel_requantization_key K>
inline constexpr auto channel_requantization_v = detail::compute_keyed_requantization<K>();

namespace detail {

// The key of call C's per-channel requantization (channels 0: the call's scales cannot be keyed by value,
// per-channel scales in bytes that name no file; requantization_v<M, C> then holds them).
template <auto& M, std::size_t C>
constexpr channel_requantization_key channel_requantization_key_of() {
  const kernel_call& call = M.calls[C];
  const tensor& weights = M.tensor_at(call.operands[1]);
  const quantization& w = weights.quant;
  channel_requantization_key key{};
  key.input_scale_bits = std::bit_cast<std::uint32_t>(M.tensor_at(call.operands[0]).quant.scale);
  key.output_scale_bits = std::bit_cast<std::uint32_t>(M.tensor_at(call.result).quant.scale);
  key.weight_scale_bits = std::bit_cast<std::uint32_t>(w.scale);
  if (w.per_channel()) {
    key.weight_channels = w.channel_count;
    key.scales = w.scales;
    if (w.scales == nullptr) {
      if (weights.data.file == nullptr || w.scale_bytes == nullptr) return {};
      key.scale_file = weights.data.file;
      key.scale_offset = static_cast<std::size_t>(w.scale_bytes - weights.data.file);
    }
  }
  key.channels = static_cast<std::size_t>(call.params.out.last());
  return key;
}

}  // namespace detail

// The executor's hook: what kernel::invoke receives for call C of module M.
template <auto& M, std::size_t C>
constexpr kernel::requant_arrays requantization_of() {
  constexpr kernel_params p = M.calls[C].params;
  if constexpr (p.per_channel == 0 || p.type != dtype::i8) {
    return {};
  } else if constexpr (p.kind == op_kind::concat) {
    return {nullptr, nullptr, requantization_v<M, C>.scale.data(), requantization_v<M, C>.bias.data(),
            requantization_v<M, C>.requantize.data()};
  } else if constexpr (constexpr detail::channel_requantization_key key = detail::channel_requantization_key_of<M, C>();
                       key.channels > 0) {
    return {channel_requantization_v<key>.multiplier.data(), channel_requantization_v<key>.shift.data(), nullptr, nullptr, nullptr};
  } else {
    return {requantization_v<M, C>.multiplier.data(), requantization_v<M, C>.shift.data(), nullptr, nullptr, nullptr};
  }
}

}  // namespace ctnn
