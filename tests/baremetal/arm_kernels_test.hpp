// The Armv7E-M DSP int8 kernels (kernel/arm/), and on MVE targets (Cortex-M55) the Armv8.1-M MVE family
// (kernel/arm/mve/: its kernels, the DSP ones where none applies), against the reference int8 kernels, bit for bit, on
// pseudo-random layers: shapes, windows (kernel, stride, dilation, asymmetric padding), odd channel
// counts, zero points including -128 and 127, fused activation ranges and biases are drawn at compile
// time (each layer is a kernel_params, a template argument), per-channel multipliers and shifts (down
// to -31 and up to +4) and the data at run time. Conv and depthwise layers are also run in place, the
// result at the planner's shift over the input (memory/in_place_window.hpp), as ctnn::in_place_windows
// places them. Shared by arm_kernels_*.cpp (one translation unit per kernel family, to keep each
// compile short); the DSP kernels are checked where __ARM_FEATURE_DSP is defined (else they must
// report supports = false, which is checked too).
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include <ctnn/kernel/arm/i8.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/memory/in_place_window.hpp>
#include <ctnn/pass/select_kernels.hpp>

#include "kernel/int8_test_support.hpp"

namespace arm_kernels_test {

// The int8 kernel tests' xorshift32 (tests/kernel/int8_test_support.hpp): the layers (at compile time)
// and the data (at run time).
struct random : int8_test::xorshift {
  constexpr std::int32_t in(std::int32_t low, std::int32_t high) { return uniform(low, high); }  // [low, high]
  // A zero point: the extremes -128 and 127 one time in four each.
  constexpr std::int32_t zero_point() {
    const std::int32_t pick = in(0, 7);
    return pick == 0 ? -128 : (pick == 1 ? 127 : in(-128, 127));
  }
};

constexpr std::uint32_t seed_of(std::uint32_t family, std::size_t index) {
  return 0x9E3779B9u * (family + 1) + 0x85EBCA6Bu * static_cast<std::uint32_t>(index + 1);
}

// A fused activation: none, relu or relu6, as its range in the output's quantization.
constexpr void set_activation(ctnn::kernel_params& p, random& r) {
  const std::int32_t pick = r.in(0, 2);
  p.activation_min = -128;
  p.activation_max = 127;
  if (pick == 0) return;
  p.fused = pick == 1 ? ctnn::activation::relu : ctnn::activation::relu6;
  p.activation_min = p.output_offset;
  if (pick == 2) p.activation_max = p.output_offset + r.in(0, 127 - p.output_offset);
}

// A multiplier as QuantizeMultiplier makes them: [2^30, 2^31).
constexpr std::int32_t multiplier(random& r) {
  return static_cast<std::int32_t>(0x40000000u + (r.next() & 0x3FFFFFFFu));
}

// conv2d (Depthwise false) or depthwise_conv2d: a window over a small NHWC image.
constexpr ctnn::kernel_params window_layer(std::uint32_t family, std::size_t index, bool depthwise, bool in_place) {
  random r{{seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = depthwise ? ctnn::op_kind::depthwise_conv2d : ctnn::op_kind::conv2d;
  p.type = ctnn::dtype::i8;
  const std::int32_t batch = r.in(0, 5) == 0 ? 2 : 1;
  const std::int32_t in_c = depthwise ? r.in(1, 13) : (r.in(0, 2) == 0 ? r.in(1, 3) : r.in(1, 20));
  const std::int32_t out_c = depthwise ? in_c : r.in(1, 11);
  ctnn::window& w = p.win;
  w.kernel_h = r.in(1, 4);
  w.kernel_w = r.in(1, 4);
  w.stride_h = r.in(1, 3);
  w.stride_w = r.in(1, 3);
  w.dilation_h = r.in(0, 3) == 0 ? 2 : 1;
  w.dilation_w = r.in(0, 3) == 0 ? 2 : 1;
  const std::int32_t span_h = (w.kernel_h - 1) * w.dilation_h + 1, span_w = (w.kernel_w - 1) * w.dilation_w + 1;
  w.pad_top = r.in(0, span_h - 1);
  w.pad_bottom = r.in(0, span_h - 1);
  w.pad_left = r.in(0, span_w - 1);
  w.pad_right = r.in(0, span_w - 1);
  const std::int32_t in_h = r.in(span_h > w.pad_top + w.pad_bottom ? span_h - w.pad_top - w.pad_bottom : 1, 9);
  const std::int32_t in_w = r.in(span_w > w.pad_left + w.pad_right ? span_w - w.pad_left - w.pad_right : 1, 9);
  const std::int32_t out_h = (in_h + w.pad_top + w.pad_bottom - span_h) / w.stride_h + 1;
  const std::int32_t out_w = (in_w + w.pad_left + w.pad_right - span_w) / w.stride_w + 1;
  p.in = ctnn::make_shape(batch, in_h, in_w, in_c);
  p.out = ctnn::make_shape(batch, out_h, out_w, out_c);
  p.has_bias = r.in(0, 3) != 0 ? 1 : 0;
  p.input_offset = -r.zero_point();
  p.output_offset = r.zero_point();
  p.per_channel = 1;
  set_activation(p, r);
  p.in_place = in_place ? 1 : 0;
  return p;
}

constexpr ctnn::kernel_params dense_layer(std::uint32_t family, std::size_t index) {
  random r{{seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::dense;
  p.type = ctnn::dtype::i8;
  const std::int32_t batch = r.in(1, 3), features = r.in(1, 45), units = r.in(1, 21);
  p.in = ctnn::make_shape(batch, features);
  p.out = ctnn::make_shape(batch, units);
  p.has_bias = r.in(0, 3) != 0 ? 1 : 0;
  p.input_offset = -r.zero_point();
  p.output_offset = r.zero_point();
  p.per_channel = r.in(0, 1);
  if (p.per_channel == 0) {
    p.output_multiplier = multiplier(r);
    p.output_shift = r.in(0, 3) == 0 ? r.in(-31, -25) : r.in(-12, 2);
  }
  set_activation(p, r);
  return p;
}

// avg_pool (a window with padding smaller than the kernel, no dilation, as TFLite's) or global_avg_pool.
constexpr ctnn::kernel_params pool_layer(std::uint32_t family, std::size_t index) {
  random r{{seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.type = ctnn::dtype::i8;
  p.kind = r.in(0, 3) == 0 ? ctnn::op_kind::global_avg_pool : ctnn::op_kind::avg_pool;
  const std::int32_t batch = r.in(0, 5) == 0 ? 2 : 1, channels = r.in(1, 13);
  ctnn::window& w = p.win;
  w.kernel_h = r.in(1, 4);
  w.kernel_w = r.in(1, 4);
  w.stride_h = r.in(1, 3);
  w.stride_w = r.in(1, 3);
  w.pad_top = r.in(0, w.kernel_h - 1);
  w.pad_bottom = r.in(0, w.kernel_h - 1);
  w.pad_left = r.in(0, w.kernel_w - 1);
  w.pad_right = r.in(0, w.kernel_w - 1);
  const std::int32_t in_h = r.in(w.kernel_h > w.pad_top + w.pad_bottom ? w.kernel_h - w.pad_top - w.pad_bottom : 1, 9);
  const std::int32_t in_w = r.in(w.kernel_w > w.pad_left + w.pad_right ? w.kernel_w - w.pad_left - w.pad_right : 1, 9);
  p.in = ctnn::make_shape(batch, in_h, in_w, channels);
  if (p.kind == ctnn::op_kind::global_avg_pool) {
    w = ctnn::window{};
    p.out = ctnn::make_shape(batch, 1, 1, channels);
  } else {
    p.out = ctnn::make_shape(batch, (in_h + w.pad_top + w.pad_bottom - w.kernel_h) / w.stride_h + 1,
                             (in_w + w.pad_left + w.pad_right - w.kernel_w) / w.stride_w + 1, channels);
  }
  p.activation_min = r.in(0, 1) == 0 ? -128 : r.in(-128, 0);
  p.activation_max = r.in(0, 1) == 0 ? 127 : r.in(p.activation_min, 127);
  return p;
}

constexpr ctnn::kernel_params add_layer(std::uint32_t family, std::size_t index) {
  random r{{seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::add;
  p.type = ctnn::dtype::i8;
  p.in = p.in2 = p.out = ctnn::make_shape(1, r.in(1, 6), r.in(1, 6), r.in(1, 9));
  p.input_offset = -r.zero_point();
  p.input2_offset = -r.zero_point();
  p.output_offset = r.zero_point();
  p.left_shift = 20;
  // TFLite's: input multipliers scale_k / (2 * max scale) (shift <= 0), the output's 2 * max scale /
  // (2^20 * output scale).
  p.input_multiplier = multiplier(r);
  p.input_shift = r.in(0, 1) == 0 ? -1 : r.in(-6, -1);
  p.input2_multiplier = multiplier(r);
  p.input2_shift = r.in(-6, -1);
  p.output_multiplier = multiplier(r);
  p.output_shift = r.in(-24, -14);
  set_activation(p, r);
  return p;
}

// Run-time operands of one layer: input(s), weights, bias, per-channel multipliers and shifts.
inline constexpr std::size_t max_elements = 2 * 9 * 9 * 64;
struct operands {
  std::int8_t input[max_elements];
  std::int8_t input2[max_elements];
  std::int8_t weights[4 * 4 * 20 * 11 + 45 * 21];
  std::int32_t bias[64];
  std::int32_t multiplier[64];
  std::int32_t shift[64];
};

// One set of buffers for every layer (not one per template instance).
inline operands layer_operands;
inline std::int8_t expected_output[max_elements], actual_output[max_elements], in_place_arena[3 * max_elements];

// The per-channel shifts fill() draws: any (right, zero or left, at random), or every one right, or
// none left and one zero, or one left (the MVE depthwise kernel's three requantization variants).
enum class shift_choice { any, right, no_left, some_left };
inline shift_choice shifts = shift_choice::any;

inline void fill(operands& o, std::uint32_t seed) {
  random r{{seed | 1u}};
  for (auto& v : o.input) v = static_cast<std::int8_t>(r.in(-128, 127));
  for (auto& v : o.input2) v = static_cast<std::int8_t>(r.in(-128, 127));
  for (auto& v : o.weights) v = static_cast<std::int8_t>(r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -127 : 127) : r.in(-127, 127));
  for (auto& v : o.bias) v = r.in(0, 7) == 0 ? r.in(-(1 << 30), 1 << 30) : r.in(-(1 << 16), 1 << 16);
  for (auto& v : o.multiplier) v = multiplier(r);
  for (auto& v : o.shift) {
    const std::int32_t pick = r.in(0, 7);
    v = pick == 0 ? r.in(-31, -28) : (pick == 1 ? r.in(0, 4) : r.in(-12, -1));
    if (shifts == shift_choice::right && v >= 0) v -= 5;
    if (shifts == shift_choice::no_left && v > 0) v = -v;
  }
  if (shifts == shift_choice::no_left) o.shift[0] = 0;
  if (shifts == shift_choice::some_left) o.shift[1] = 3;
}

// The kernel family of layer P: on MVE targets the MVE family's kernel where it has one; else the DSP
// kernel (its `supports` aside: without the DSP extension, the kernels still run on the instructions'
// C++ twins of detail/dsp.hpp, which checks their arithmetic on any host).
template <ctnn::kernel_params P>
constexpr auto kernel_family() {
  namespace d = ctnn::kernel::arm::detail;
#if CTNN_ARM_MVE
  if constexpr (ctnn::kernel::arm::mve::i8_kernel<P>::supports) return ctnn::kernel::arm::mve::i8_kernel<P>{};
  else
#endif
  if constexpr (P.kind == ctnn::op_kind::conv2d || P.kind == ctnn::op_kind::dense) return d::conv_kernel<P>{};
  else if constexpr (P.kind == ctnn::op_kind::depthwise_conv2d && P.depth_multiplier != 1) return d::depthwise_multiplier_kernel<P>{};
  else if constexpr (P.kind == ctnn::op_kind::depthwise_conv2d) return d::depthwise_kernel<P>{};
  else if constexpr (P.kind == ctnn::op_kind::add) return d::add_kernel<P>{};
  else if constexpr (P.kind == ctnn::op_kind::softmax) return d::softmax_kernel<P>{};
  else if constexpr (P.kind == ctnn::op_kind::sigmoid || P.kind == ctnn::op_kind::tanh || P.kind == ctnn::op_kind::quantize)
    return d::lookup_kernel<P>{};
  else if constexpr (P.kind == ctnn::op_kind::reshape) return d::copy_kernel<P>{};
  else if constexpr (P.kind == ctnn::op_kind::resize_nearest) return d::resize_nearest_kernel<P>{};
  else if constexpr (P.kind == ctnn::op_kind::resize_linear) return d::resize_bilinear_kernel<P>{};
  else return d::avg_pool_kernel<P>{};
}

// The family select_kernels must choose for every layer of these tests on this target.
#if CTNN_ARM_MVE
inline constexpr ctnn::kernel_impl expected_family = ctnn::kernel_impl::arm_mve_i8;
#else
inline constexpr ctnn::kernel_impl expected_family = ctnn::kernel_impl::arm_dsp_i8;
#endif

// A layer's weights as pack<K> reads a constant (kernel/kernel_family.hpp).
struct weight_reader {
  const std::int8_t* weights;
  std::size_t elements;
  constexpr std::int8_t i8(std::size_t i) const { return weights[i]; }
  constexpr std::size_t count() const { return elements; }
};

// Operand 1 (the weights) as Kernel reads it: re-laid out by its pack<1> where it packs them (at run
// time here, from the random weights; the executor's are made at compile time), else as stored.
template <ctnn::kernel_params P, class Kernel>
const void* weights_for(const std::int8_t* weights) {
  if constexpr (P.kind != ctnn::op_kind::add && Kernel::packs(1)) {
    constexpr std::size_t elements = static_cast<std::size_t>(
        P.kind == ctnn::op_kind::depthwise_conv2d ? std::int64_t{P.win.kernel_h} * P.win.kernel_w * P.out.last()
        : P.kind == ctnn::op_kind::dense          ? P.in.elements() / P.in[0] * P.out.last()
                                                  : std::int64_t{P.win.kernel_h} * P.win.kernel_w * P.in.last() * P.out.last());
    static decltype(Kernel::template pack<1>(weight_reader{})) packed;
    packed = Kernel::template pack<1>(weight_reader{weights, elements});
    return packed.data();
  } else {
    return weights;
  }
}

// Whether the DSP kernel's output equals the reference kernel's, with the layer described on failure.
template <ctnn::kernel_params P>
void check_equal(const std::int8_t* expected, const std::int8_t* actual, std::size_t out_bytes, int placement) {
  std::size_t first_difference = out_bytes;
  for (std::size_t i = 0; i < out_bytes && first_difference == out_bytes; ++i)
    if (actual[i] != expected[i]) first_difference = i;
  INFO("layer kind ", doctest::String(ctnn::name_of(P.kind)), " in ", P.in[0], "x", P.in[1], "x", P.in[2], "x", P.in.last(), " out ", P.out[0], "x",
       P.out[1], "x", P.out.last(), " kernel ", P.win.kernel_h, "x", P.win.kernel_w, " stride ", P.win.stride_h, ",", P.win.stride_w,
       " dilation ", P.win.dilation_h, ",", P.win.dilation_w, " pads ", P.win.pad_top, ",", P.win.pad_left, " in place ", P.in_place, " (placement ", placement, ")",
       " first difference at ", static_cast<unsigned>(first_difference));
  CHECK(first_difference == out_bytes);
}

// Runs layer P with the reference kernel and the DSP kernel (out of place, and in place where P says
// so), and checks that every output byte agrees.
template <ctnn::kernel_params P>
void check_layer(std::uint32_t seed) {
  using arm_kernel = decltype(kernel_family<P>());
#if CTNN_ARM_MVE
  static_assert(ctnn::kernel::arm::mve::i8_kernel<P>::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == expected_family,
                "select_kernels should choose the MVE family (its kernels, the DSP ones where none applies) for every layer of this test");
#elif defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static_assert(ctnn::kernel::arm::i8_kernel<P>::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == expected_family,
                "select_kernels should choose the DSP kernels for every layer of this test");
#else
  static_assert(!ctnn::kernel::arm::i8_kernel<P>::supports, "without the DSP extension no DSP kernel may be selected");
#endif
  static_assert(P.in.elements() <= static_cast<std::int64_t>(max_elements) && P.out.elements() <= static_cast<std::int64_t>(max_elements));
  operands& o = layer_operands;
  fill(o, seed);
  const ctnn::kernel::requant_arrays rq{o.multiplier, o.shift};
  const bool binary = P.kind == ctnn::op_kind::add;
  const void* const args[3] = {o.input, binary ? static_cast<const void*>(o.input2) : o.weights, o.bias};
  const void* const kernel_args[3] = {o.input, binary ? static_cast<const void*>(o.input2) : weights_for<P, arm_kernel>(o.weights), o.bias};
  constexpr std::size_t out_bytes = static_cast<std::size_t>(P.out.elements());
  std::int8_t* expected = expected_output;
  std::int8_t* actual = actual_output;
  constexpr ctnn::kernel_params out_of_place = [] {
    ctnn::kernel_params q = P;
    q.in_place = 0;
    return q;
  }();
  ctnn::kernel::invoke_i8<out_of_place>(args, expected, rq);  // the reference kernel (dispatch's fallback)
  // In place: the result at the largest shift the planner allows below the input (in elements, <= 0),
  // and one byte further (the depthwise kernel's channel-major walk needs a distance of whole pixels,
  // kernel/arm/depthwise.hpp: this checks its pixel-major fallback).
  constexpr int placements = P.in_place == 0 ? 1 : 2;
  for (int placement = 0; placement < placements; ++placement) {
    std::memset(actual, 0x5A, max_elements);
    if constexpr (P.in_place == 0) {
      arm_kernel::run(kernel_args, actual, rq);
    } else {
      constexpr std::int64_t shift = ctnn::memory::in_place_window_shift(P.in, P.out, P.win);
      static_assert(shift <= 0);
      std::int8_t* arena = in_place_arena;
      constexpr std::size_t input_at = 2 * max_elements;
      const auto output_at = static_cast<std::size_t>(static_cast<std::int64_t>(input_at) + shift - placement);
      std::memcpy(arena + input_at, o.input, static_cast<std::size_t>(P.in.elements()));
      const void* const in_place_args[3] = {arena + input_at, weights_for<P, arm_kernel>(o.weights), o.bias};
      arm_kernel::run(in_place_args, arena + output_at, rq);
      std::memcpy(actual, arena + output_at, out_bytes);
    }
    check_equal<P>(expected, actual, out_bytes, placement);
  }
}

constexpr ctnn::kernel_params conv_layer(std::uint32_t family, std::size_t index) { return window_layer(family, index, false, false); }
constexpr ctnn::kernel_params conv_layer_in_place(std::uint32_t family, std::size_t index) {
  return window_layer(family, index, false, true);
}
// An unpadded 1x1 conv with stride 1 (pointwise, as in MobileNets), half of them over whole quads of
// input channels (blocks widened once, kernel/arm/detail/pointwise.hpp; images of up to 81 pixels:
// several blocks and a partial one), in place or not.
constexpr ctnn::kernel_params pointwise_layer_of(std::uint32_t family, std::size_t index, bool in_place) {
  ctnn::kernel_params p = window_layer(family, index, false, in_place);
  p.win = ctnn::window{};
  const std::int32_t in_c = index % 2 == 0 ? 4 * ((p.in[3] + 3) / 4) : p.in[3];
  p.in = ctnn::make_shape(p.in[0], p.in[1], p.in[2], in_c);
  p.out = ctnn::make_shape(p.in[0], p.in[1], p.in[2], p.out[3]);
  return p;
}
constexpr ctnn::kernel_params pointwise_layer_in_place(std::uint32_t family, std::size_t index) {
  return pointwise_layer_of(family, index, true);
}
constexpr ctnn::kernel_params pointwise_layer(std::uint32_t family, std::size_t index) { return pointwise_layer_of(family, index, false); }
constexpr ctnn::kernel_params depthwise_layer(std::uint32_t family, std::size_t index) { return window_layer(family, index, true, false); }
constexpr ctnn::kernel_params depthwise_layer_in_place(std::uint32_t family, std::size_t index) {
  return window_layer(family, index, true, true);
}
// Channels in eights (8, 16 or 24: whole groups of the MVE depthwise kernel, kernel/arm/mve/depthwise.hpp), in place or not.
constexpr ctnn::kernel_params depthwise_layer_in_eights_of(std::uint32_t family, std::size_t index, bool in_place) {
  ctnn::kernel_params p = window_layer(family, index, true, in_place);
  const std::int32_t channels = 8 * static_cast<std::int32_t>(1 + index % 3);
  p.in = ctnn::make_shape(p.in[0], p.in[1], p.in[2], channels);
  p.out = ctnn::make_shape(p.out[0], p.out[1], p.out[2], channels);
  return p;
}
constexpr ctnn::kernel_params depthwise_layer_in_eights(std::uint32_t family, std::size_t index) {
  return depthwise_layer_in_eights_of(family, index, false);
}
constexpr ctnn::kernel_params depthwise_layer_in_eights_in_place(std::uint32_t family, std::size_t index) {
  return depthwise_layer_in_eights_of(family, index, true);
}
// The same over maps 52 to 58 pixels wide, 8 channels (max_elements): rows of more than the MVE kernel's
// ring of padded rows holds (max_buffer_bytes), so that it walks them with its border and whole-window
// pixels instead.
constexpr ctnn::kernel_params depthwise_layer_in_eights_wide_of(std::uint32_t family, std::size_t index, bool in_place) {
  ctnn::kernel_params p = depthwise_layer_in_eights_of(family, index, in_place);
  const ctnn::window& w = p.win;
  const std::int32_t in_w = 52 + static_cast<std::int32_t>(index % 7);
  const std::int32_t span_w = (w.kernel_w - 1) * w.dilation_w + 1;
  const std::int32_t out_w = (in_w + w.pad_left + w.pad_right - span_w) / w.stride_w + 1;
  p.in = ctnn::make_shape(p.in[0], p.in[1], in_w, 8);
  p.out = ctnn::make_shape(p.out[0], p.out[1], out_w, 8);
  return p;
}
constexpr ctnn::kernel_params depthwise_layer_in_eights_wide(std::uint32_t family, std::size_t index) {
  return depthwise_layer_in_eights_wide_of(family, index, false);
}
constexpr ctnn::kernel_params depthwise_layer_in_eights_wide_in_place(std::uint32_t family, std::size_t index) {
  return depthwise_layer_in_eights_wide_of(family, index, true);
}
// Depthwise layers as the MLPerf Tiny models have them (3 x 3, SAME padding): KWS's 25 x 5 x 64 at stride
// 1 (padding on every side), and 8 x 8 x 16 at stride 2 as VWW's (padding at the bottom and the right
// only), in place (odd indices) or not.
constexpr ctnn::kernel_params depthwise_model_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = window_layer(family, index, true, index % 2 == 1);
  const bool strided = index % 4 >= 2;
  ctnn::window& w = p.win;
  w.kernel_h = w.kernel_w = 3;
  w.stride_h = w.stride_w = strided ? 2 : 1;
  w.dilation_h = w.dilation_w = 1;
  w.pad_top = w.pad_left = strided ? 0 : 1;
  w.pad_bottom = w.pad_right = 1;
  p.in = strided ? ctnn::make_shape(1, 8, 8, 16) : ctnn::make_shape(1, 25, 5, 64);
  p.out = strided ? ctnn::make_shape(1, 4, 4, 16) : ctnn::make_shape(1, 25, 5, 64);
  return p;
}

#if CTNN_ARM_MVE
// How many of the layers Layer(Family, I) the MVE depthwise kernel walks through its ring of padded rows
// (kernel/arm/mve/depthwise.hpp: narrow maps), the others with its border and whole-window pixels.
template <auto Layer, std::uint32_t Family, std::size_t... I>
constexpr int buffered_layers(std::index_sequence<I...>) {
  return (0 + ... + (ctnn::kernel::arm::mve::detail::depthwise_kernel<Layer(Family, I)>::buffered ? 1 : 0));
}
#endif

// Layers Layer(Family, I) for each I.
template <auto Layer, std::uint32_t Family, std::size_t... I>
void check_layers(std::index_sequence<I...>) {
  (check_layer<Layer(Family, I)>(seed_of(Family + 1000, I)), ...);
}

}  // namespace arm_kernels_test
