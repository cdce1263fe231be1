#pragma once
// ONNX's integer operators with ONNX semantics (docs/design.md §4; kernel_params::requantization == onnx), in
// ONNX's own layouts (data_layout::onnx): QuantizeLinear, DequantizeLinear (per tensor or per axis),
// QLinearConv and ConvInteger (NCHW activations, OIHW weights, groups; NHWC activations with layout onnx_nhwc),
// QLinearMatMul and MatMulInteger (A [..., M, K] x B [..., K, N]), QLinearGlobalAveragePool and
// QLinearAveragePool (NHWC, the type kept). uint8 and int8 in any combination; *Integer ops write int32.
//
// Shared integer core: acc = bias + sum (x - x_zero_point) * (w - w_zero_point) in int32, wrapping (padding taps
// hold the zero point: they add nothing), then for QLinear* y = saturate(round_half_even(float(acc) *
// multiplier) + y_zero_point) (rounding.hpp). The per-channel weight scales and zero points (along the
// output channels: conv dim 0, MatMul's N) are operands; per-tensor ones are parameters.
//
// Operands (kernel_params documents the fields):
//   conv2d, dense:  x, w, bias (int32, conv only; may be unaligned: read byte-wise), w_scale (float32),
//                   w_zero_point (w's type)
//   quantize:       x (float32), y_scale, y_zero_point (the result's type)
//   dequantize:     x, x_scale, x_zero_point (x's type)
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>

namespace ctnn::kernel::reference::onnx_quant {

namespace detail {

inline std::int32_t load_i32(const void* bytes, std::int64_t index) {
  std::int32_t v = 0;
  std::memcpy(&v, static_cast<const unsigned char*>(bytes) + 4 * index, sizeof v);
  return v;
}
inline float load_f32(const void* bytes, std::int64_t index) {
  float v = 0.0f;
  std::memcpy(&v, static_cast<const unsigned char*>(bytes) + 4 * index, sizeof v);
  return v;
}

// A per-axis value k (count > 1), or the per-tensor one.
template <class T>
inline std::int32_t zero_point_at(const void* values, std::int32_t count, std::int64_t k, std::int32_t per_tensor) {
  return count > 1 ? static_cast<std::int32_t>(static_cast<const T*>(values)[k]) : per_tensor;
}
inline float scale_at(const void* values, std::int32_t count, std::int64_t k, float per_tensor) {
  return count > 1 ? load_f32(values, k) : per_tensor;
}

// The channel of element i along a per-axis op's axis (p->axis of p->out).
struct axis_walk {
  std::int64_t inner = 1, channels = 1;
  template <class Params>
  explicit axis_walk(Params p) : channels(p->out[p->axis]) {
    for (std::int32_t d = p->axis + 1; d < p->out.rank; ++d) inner *= p->out[d];
  }
  std::int64_t channel(std::int64_t i) const { return i / inner % channels; }
};

// Writes channel o's accumulator: int32 as it is (ConvInteger, MatMulInteger), or requantized.
template <class Y>
inline void store(Y* y, std::int64_t at, std::int32_t acc, float multiplier, std::int32_t zero_point) {
  if constexpr (sizeof(Y) == 4) y[at] = acc;
  else y[at] = requantize_value<Y>(acc, multiplier, zero_point);
}

// Channel o's multiplier: per tensor (compile-time in the full policy) or from the per-channel scales.
template <class Params>
inline float multiplier_of(Params p, const void* w_scale, std::int64_t o) {
  if (p->onnx.scale_count <= 1) return std::bit_cast<float>(p->onnx.multiplier_bits);
  return output_multiplier(std::bit_cast<float>(p->onnx.input_scale_bits), load_f32(w_scale, o), std::bit_cast<float>(p->onnx.output_scale_bits));
}

}  // namespace detail

// QuantizeLinear, per tensor or along p->axis (p->onnx.scale_count scales).
template <class Y, class Params>
void quantize_linear(Params p, const float* x, const void* scales, const void* zero_points, Y* y) {
  const std::int64_t elements = p->out.elements();
  if (p->onnx.scale_count <= 1) {
    const float scale = std::bit_cast<float>(p->onnx.output_scale_bits);
    for (std::int64_t i = 0; i < elements; ++i) y[i] = quantize_value<Y>(x[i], scale, p->output_offset);
    return;
  }
  const detail::axis_walk along{p};
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int64_t c = along.channel(i);
    y[i] = quantize_value<Y>(x[i], detail::load_f32(scales, c), detail::zero_point_at<Y>(zero_points, p->onnx.zero_point_count, c, p->output_offset));
  }
}

// DequantizeLinear, per tensor or along p->axis.
template <class X, class Params>
void dequantize_linear(Params p, const X* x, const void* scales, const void* zero_points, float* y) {
  const std::int64_t elements = p->out.elements();
  if (p->onnx.scale_count <= 1) {
    const float scale = std::bit_cast<float>(p->onnx.input_scale_bits);
    for (std::int64_t i = 0; i < elements; ++i) y[i] = dequantize_value(x[i], scale, -p->input_offset);
    return;
  }
  const detail::axis_walk along{p};
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int64_t c = along.channel(i);
    y[i] = dequantize_value(x[i], detail::load_f32(scales, c), detail::zero_point_at<X>(zero_points, p->onnx.zero_point_count, c, -p->input_offset));
  }
}

namespace detail {

// The element strides of an activation [N, C, H, W] held in NCHW or in NHWC (dims: as held).
struct image_strides {
  std::int64_t batch = 0, channel = 0, row = 0, column = 0;
  std::int32_t channels = 0, height = 0, width = 0;
  static constexpr image_strides of(const shape& dims, bool nhwc) {
    image_strides s{};
    s.channels = nhwc ? dims[3] : dims[1];
    s.height = nhwc ? dims[1] : dims[2];
    s.width = nhwc ? dims[2] : dims[3];
    s.batch = static_cast<std::int64_t>(s.channels) * s.height * s.width;
    s.channel = nhwc ? 1 : static_cast<std::int64_t>(s.height) * s.width;
    s.row = nhwc ? static_cast<std::int64_t>(s.width) * s.channels : s.width;
    s.column = nhwc ? s.channels : 1;
    return s;
  }
  constexpr std::int64_t at(std::int32_t n, std::int32_t c, std::int32_t r, std::int32_t k) const {  // row r, column k
    return n * batch + c * channel + r * row + k * column;
  }
};

}  // namespace detail

// QLinearConv / ConvInteger: x [N, C, H, W], w [O, C / groups, kh, kw], y [N, O, OH, OW]; with
// p->onnx.layout onnx_nhwc, x [N, H, W, C] and y [N, OH, OW, O] (the weights as ONNX stores them either way).
template <class X, class W, class Y, class Params>
void conv(Params p, const X* x, const W* w, const void* bias, const void* w_scale, const void* w_zero_point, Y* y) {
  const bool nhwc = p->onnx.layout == data_layout::onnx_nhwc;
  const detail::image_strides in = detail::image_strides::of(p->in, nhwc), out = detail::image_strides::of(p->out, nhwc);
  const std::int32_t batches = p->in[0], channels = in.channels, height = in.height, width = in.width;
  const std::int32_t outputs = out.channels, out_height = out.height, out_width = out.width;
  const std::int32_t per_group = channels / p->groups, outputs_per_group = outputs / p->groups;
  const window& win = p->win;
  const std::int64_t taps = static_cast<std::int64_t>(win.kernel_h) * win.kernel_w;
  // Output pixels row-major, every channel of a pixel before the next: the walk that makes a result placed
  // over its dying NHWC input safe (memory/in_place_window.hpp; kernel_params::in_place).
  for (std::int32_t n = 0; n < batches; ++n) {
    for (std::int32_t oy = 0; oy < out_height; ++oy) {
      for (std::int32_t ox = 0; ox < out_width; ++ox) {
        for (std::int32_t o = 0; o < outputs; ++o) {
          const std::int32_t first_channel = o / outputs_per_group * per_group;
          const std::int32_t w_offset = -detail::zero_point_at<W>(w_zero_point, p->onnx.zero_point_count, o, -p->weights_offset);
          const float multiplier = detail::multiplier_of(p, w_scale, o);
          const W* filter = w + static_cast<std::int64_t>(o) * per_group * taps;
          std::int32_t acc = p->has_bias != 0 ? detail::load_i32(bias, o) : 0;
          for (std::int32_t c = 0; c < per_group; ++c) {
            const W* kernel = filter + c * taps;
            for (std::int32_t ky = 0; ky < win.kernel_h; ++ky) {
              const std::int32_t iy = oy * win.stride_h - win.pad_top + ky * win.dilation_h;
              if (iy < 0 || iy >= height) continue;
              for (std::int32_t kx = 0; kx < win.kernel_w; ++kx) {
                const std::int32_t ix = ox * win.stride_w - win.pad_left + kx * win.dilation_w;
                if (ix < 0 || ix >= width) continue;
                acc = ctnn::detail::quant::wrapping_add(  // int32 wraps (a bias near INT32_MIN): no UB
                    acc, (static_cast<std::int32_t>(x[in.at(n, first_channel + c, iy, ix)]) + p->input_offset) *
                             (static_cast<std::int32_t>(kernel[ky * win.kernel_w + kx]) + w_offset));
              }
            }
          }
          detail::store(y, out.at(n, o, oy, ox), acc, multiplier, p->output_offset);
        }
      }
    }
  }
}

// QLinearGlobalAveragePool (onnxruntime's fusion of a QDQ GlobalAveragePool), x [N, H, W, C] (NHWC) ->
// y [N, 1, 1, C] of x's type, as MLAS computes it: acc = sum(x) - x_zero_point * H * W (int32), y =
// saturate(round_half_even(float(acc) * multiplier) + y_zero_point), multiplier = x_scale / (y_scale *
// float(H * W)) in float, in that order.
template <class X, class Y, class Params>
void global_average_pool(Params p, const X* x, Y* y) {
  const std::int32_t batches = p->in[0], channels = p->in[3];
  const std::int32_t pixels = p->in[1] * p->in[2];
  const float multiplier = std::bit_cast<float>(p->onnx.input_scale_bits) /
                           (std::bit_cast<float>(p->onnx.output_scale_bits) * static_cast<float>(pixels));
  // Four channels at a time (their sums in registers, one word of bytes per pixel), then the rest one by one.
  const std::int32_t initial = p->input_offset * pixels;  // input_offset: -x_zero_point
  const auto sum = [&](const X* image, std::int32_t c) {
    std::int32_t acc = initial;
    for (std::int32_t i = 0; i < pixels; ++i) acc += static_cast<std::int32_t>(image[static_cast<std::int64_t>(i) * channels + c]);
    return acc;
  };
  for (std::int32_t n = 0; n < batches; ++n) {
    const X* image = x + static_cast<std::int64_t>(n) * pixels * channels;
    Y* out = y + static_cast<std::int64_t>(n) * channels;
    std::int32_t c = 0;
    for (; c + 4 <= channels; c += 4) {
      std::int32_t a0 = initial, a1 = initial, a2 = initial, a3 = initial;
      for (std::int32_t i = 0; i < pixels; ++i) {
        const X* pixel = image + static_cast<std::int64_t>(i) * channels + c;
        a0 += static_cast<std::int32_t>(pixel[0]);
        a1 += static_cast<std::int32_t>(pixel[1]);
        a2 += static_cast<std::int32_t>(pixel[2]);
        a3 += static_cast<std::int32_t>(pixel[3]);
      }
      out[c] = requantize_value<Y>(a0, multiplier, p->output_offset);
      out[c + 1] = requantize_value<Y>(a1, multiplier, p->output_offset);
      out[c + 2] = requantize_value<Y>(a2, multiplier, p->output_offset);
      out[c + 3] = requantize_value<Y>(a3, multiplier, p->output_offset);
    }
    for (; c < channels; ++c) out[c] = requantize_value<Y>(sum(image, c), multiplier, p->output_offset);
  }
}

// QLinearAveragePool (onnxruntime's fusion of a QDQ AveragePool whose window is not the whole image),
// x [N, H, W, C] (NHWC) -> y [N, OH, OW, C] of x's type, p->win without dilation, as onnxruntime's
// contrib kernel computes it: in float, each input dequantized, x_scale * float(x - x_zero_point) (its
// lookup table: a product, never fused into the sum), summed in the window's row-major order from 0.0f,
// divided by the count of in-bounds taps (float(count)), then y = saturate(nearbyint(mean / y_scale +
// float(y_zero_point))): the zero point added in float before the rounding, ties to even. (count_include_pad:
// the importer pads with the zero point first, whose taps add +0.0f exactly.)
template <class X, class Y, class Params>
void average_pool(Params p, const X* x, Y* y) {
  const std::int32_t batches = p->in[0], height = p->in[1], width = p->in[2], channels = p->in[3];
  const std::int32_t out_height = p->out[1], out_width = p->out[2];
  const window& win = p->win;
  const float x_scale = std::bit_cast<float>(p->onnx.input_scale_bits), y_scale = std::bit_cast<float>(p->onnx.output_scale_bits);
  float dequantized[256];  // by the byte's value as X
  for (std::int32_t v = std::numeric_limits<X>::lowest(); v <= std::numeric_limits<X>::max(); ++v)
    dequantized[static_cast<std::uint8_t>(v)] = x_scale * static_cast<float>(v + p->input_offset);  // input_offset: -x_zero_point
  const float y_zero_point = static_cast<float>(p->output_offset);
  for (std::int32_t n = 0; n < batches; ++n) {
    for (std::int32_t oy = 0; oy < out_height; ++oy) {
      const std::int32_t top = oy * win.stride_h - win.pad_top;
      const std::int32_t first_row = top > 0 ? top : 0, end_row = top + win.kernel_h < height ? top + win.kernel_h : height;
      for (std::int32_t ox = 0; ox < out_width; ++ox) {
        const std::int32_t left = ox * win.stride_w - win.pad_left;
        const std::int32_t first_column = left > 0 ? left : 0, end_column = left + win.kernel_w < width ? left + win.kernel_w : width;
        const float count = static_cast<float>((end_row - first_row) * (end_column - first_column));
        Y* out = y + ((static_cast<std::int64_t>(n) * out_height + oy) * out_width + ox) * channels;
        for (std::int32_t c = 0; c < channels; ++c) {
          float sum = 0.0f;
          for (std::int32_t r = first_row; r < end_row; ++r)
            for (std::int32_t k = first_column; k < end_column; ++k)
              sum += dequantized[static_cast<std::uint8_t>(x[((static_cast<std::int64_t>(n) * height + r) * width + k) * channels + c])];
          out[c] = saturate<Y>(round_half_even(sum / count / y_scale + y_zero_point), 0);
        }
      }
    }
  }
}

// QLinearMatMul / MatMulInteger: a [..., M, K] (p->in) x b [..., K, N] (p->in2; one batch or as many as
// a), y [..., M, N]. The channels are N's columns.
template <class X, class W, class Y, class Params>
void matmul(Params p, const X* a, const W* b, const void* b_scale, const void* b_zero_point, Y* y) {
  const std::int32_t rows = p->in.rank >= 2 ? p->in.at(-2) : 1, depth = p->in.last(), columns = p->out.last();
  const std::int64_t batches = p->in.elements() / (static_cast<std::int64_t>(rows) * depth);
  const std::int64_t b_batches = p->in2.elements() / (static_cast<std::int64_t>(depth) * columns);
  for (std::int64_t batch = 0; batch < batches; ++batch) {
    const X* a_rows = a + batch * rows * depth;
    const W* b_matrix = b + (b_batches == 1 ? 0 : batch) * depth * columns;
    Y* y_rows = y + batch * rows * columns;
    for (std::int32_t j = 0; j < columns; ++j) {
      const std::int32_t b_offset = -detail::zero_point_at<W>(b_zero_point, p->onnx.zero_point_count, j, -p->weights_offset);
      const float multiplier = detail::multiplier_of(p, b_scale, j);
      for (std::int32_t i = 0; i < rows; ++i) {
        std::int32_t acc = 0;
        for (std::int32_t k = 0; k < depth; ++k)
          acc = ctnn::detail::quant::wrapping_add(  // int32 wraps: no UB
              acc, (static_cast<std::int32_t>(a_rows[static_cast<std::int64_t>(i) * depth + k]) + p->input_offset) *
                       (static_cast<std::int32_t>(b_matrix[static_cast<std::int64_t>(k) * columns + j]) + b_offset));
        detail::store(y_rows, static_cast<std::int64_t>(i) * columns + j, acc, multiplier, p->output_offset);
      }
    }
  }
}

}  // namespace ctnn::kernel::reference::onnx_quant
