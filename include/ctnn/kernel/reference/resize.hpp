#pragma once
// Reference resize kernels (ops/resize.hpp): nearest neighbour (any element type) and (multi)linear
// interpolation (float32; int8 as TFLM's ResizeBilinearInteger). The index arithmetic is the references':
// TFLM's GetNearestNeighbor and ComputeInterpolationValues in float (coordinates tflite: NHWC, axes 1 and 2),
// ONNX's reference Resize in double (the other coordinates: any axes of p->resize().resized_axes).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>

namespace ctnn::kernel::reference {

namespace resize_detail {

// floor(v) as an integer I (a coordinate: far inside int64), in constant evaluation too. TFLite's float coordinates
// as int32, as TFLM converts them (a 64-bit conversion is a library call on a 32-bit core).
template <class I = std::int64_t, class F>
constexpr I floor_int(F v) {
  const auto t = static_cast<I>(v);
  return static_cast<F>(t) > v ? t - 1 : t;
}
// std::round (halves away from zero) of v >= 0, as TfLiteRound: v - floor(v) is exact.
constexpr std::int32_t round_half_away(float v) {
  const std::int32_t t = floor_int<std::int32_t>(v);
  return v - static_cast<float>(t) >= 0.5f ? t + 1 : t;
}
constexpr std::int64_t clamped(std::int64_t i, std::int32_t extent) { return i < 0 ? 0 : i >= extent ? extent - 1 : i; }

// TFLM's scale of an axis (GetNearestNeighbor, ResizeBilinear): (in - 1) / (out - 1) under align_corners,
// else in / out, in float.
constexpr float tflite_scale(const resize_fields& r, std::int32_t in, std::int32_t out) {
  return r.align_corners() && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                         : static_cast<float>(in) / static_cast<float>(out);
}

// TFLM's GetNearestNeighbor: (x + offset) * scale in float, rounded (align_corners) or floored, at most
// in - 1 (and at least 0 under half_pixel_centers).
constexpr std::int64_t tflite_nearest(const resize_fields& r, std::int32_t x, std::int32_t in, std::int32_t out) {
  const float v = (static_cast<float>(x) + (r.half_pixel_centers() ? 0.5f : 0.0f)) * tflite_scale(r, in, out);
  std::int32_t i = r.align_corners() ? round_half_away(v) : floor_int<std::int32_t>(v);
  i = i < in - 1 ? i : in - 1;
  return r.half_pixel_centers() && i < 0 ? 0 : i;
}

// ONNX's source coordinate of result index x along axis d (coordinate_transformation_mode), in double as
// its reference: the scale is the one given (or size / extent), the resized length scale * extent;
// tf_crop_and_resize's region in float (its reference subtracts and scales the float32 roi in float32).
constexpr double onnx_source(const resize_fields& r, std::int32_t d, std::int32_t x, std::int32_t in, std::int32_t out) {
  const double scale = r.scale(d), length = r.resized_length(d), at = x;
  switch (r.coordinates) {
    case resize_coordinates::asymmetric: return at / scale;
    case resize_coordinates::pytorch_half_pixel: return length == 1.0 ? -0.5 : (at + 0.5) / scale - 0.5;
    case resize_coordinates::align_corners: return length == 1.0 ? 0.0 : at * (in - 1) / (length - 1.0);
    case resize_coordinates::half_pixel_symmetric: {
      const double offset = in / 2.0 * (1.0 - out / length);
      return offset + (at + 0.5) / scale - 0.5;
    }
    case resize_coordinates::tf_half_pixel_for_nn: return (at + 0.5) / scale;
    case resize_coordinates::tf_crop_and_resize: {
      const float span = r.roi_end(d) - r.roi_start(d), start = r.roi_start(d) * static_cast<float>(in - 1);
      const double from = length == 1.0 ? static_cast<double>(span * static_cast<float>(in - 1) / 2.0f)
                                         : at * static_cast<double>(span) * (in - 1) / (length - 1.0);
      return from + static_cast<double>(start);
    }
    case resize_coordinates::half_pixel:
    case resize_coordinates::tflite: break;
  }
  return (at + 0.5) / scale - 0.5;
}

// Whether a tf_crop_and_resize coordinate falls outside the input (its result is the extrapolation value).
constexpr bool extrapolated(const resize_fields& r, double v, std::int32_t in) {
  return r.coordinates == resize_coordinates::tf_crop_and_resize && (v < 0.0 || v > in - 1);
}

// ONNX's nearest neighbour (nearest_mode) of a source coordinate, clamped to the axis.
constexpr std::int64_t onnx_nearest(const resize_fields& r, double v, std::int32_t in) {
  const std::int64_t below = floor_int(v);
  const double fraction = v - static_cast<double>(below);
  bool up = false;
  switch (r.rounding) {
    case nearest_rounding::round_prefer_floor: up = fraction > 0.5; break;
    case nearest_rounding::round_prefer_ceil: up = fraction >= 0.5; break;
    case nearest_rounding::floor: up = false; break;
    case nearest_rounding::ceil: up = fraction > 0.0; break;
  }
  return clamped(up ? below + 1 : below, in);
}

// The input index that result index x of axis d reads in nearest-neighbour mode (axes not resized: x), and
// whether it falls outside the input (tf_crop_and_resize: the extrapolation value).
struct nearest_index {
  std::int64_t at;
  bool outside;
};
constexpr nearest_index nearest_source(const resize_fields& r, std::int32_t d, std::int32_t x, std::int32_t in,
                                       std::int32_t out) {
  if ((r.resized_axes >> d & 1u) == 0) return {x, false};
  if (r.coordinates == resize_coordinates::tflite) return {tflite_nearest(r, x, in, out), false};
  const double v = onnx_source(r, d, x, in, out);
  return {onnx_nearest(r, v, in), extrapolated(r, v, in)};
}

// TFLM's ComputeInterpolationValues: result index x's source coordinate along an axis of `extent` (float),
// and the neighbours below and above it, clamped to the axis.
struct linear_coordinate {
  float at;
  std::int64_t low, high;
};
constexpr linear_coordinate tflite_linear_source(const resize_fields& r, std::int32_t x, float scale, std::int32_t extent) {
  const float at = r.half_pixel_centers() ? (static_cast<float>(x) + 0.5f) * scale - 0.5f : static_cast<float>(x) * scale;
  const std::int32_t below = floor_int<std::int32_t>(at);
  const std::int32_t above = static_cast<float>(below) == at ? below : below + 1;  // std::ceil
  return {at, below > 0 ? below : 0, above < extent - 1 ? above : extent - 1};
}

// Calls visit(i, index) for each result element i in order, index its coordinates.
template <class Params, class Visit>
[[gnu::always_inline]] constexpr void for_each_result(Params p, Visit&& visit) {
  const std::int32_t rank = p->out.rank;
  const std::int64_t elements = p->out.elements();
  std::array<std::int32_t, max_rank> index{};
  for (std::int64_t i = 0; i < elements; ++i) {
    visit(i, index);
    for (std::int32_t d = rank - 1; d >= 0; --d) {
      const auto du = static_cast<std::size_t>(d);
      if (++index[du] < p->out[d]) break;
      index[du] = 0;
    }
  }
}

// The input's row-major strides.
template <class Params>
constexpr std::array<std::int64_t, max_rank> input_strides(Params p) {
  std::array<std::int64_t, max_rank> stride{};
  std::int64_t step = 1;
  for (std::int32_t d = p->in.rank - 1; d >= 0; --d) {
    stride[static_cast<std::size_t>(d)] = step;
    step *= p->in[d];
  }
  return stride;
}

}  // namespace resize_detail

// TFLite nearest neighbour (NHWC), a call with constant parameters: the source column of each output column, in
// elements (times the depth), computed by the compiler.
template <kernel_params P>
inline constexpr bool tflite_nhwc = P.resize().coordinates == resize_coordinates::tflite && P.out.rank == 4;
template <kernel_params P>
inline constexpr auto nearest_columns_v = [] {
  std::array<std::int32_t, tflite_nhwc<P> ? static_cast<std::size_t>(P.out[2]) : 0> columns{};
  const resize_fields r = P.resize();
  for (std::int32_t x = 0; tflite_nhwc<P> && x < P.out[2]; ++x)
    columns[static_cast<std::size_t>(x)] = static_cast<std::int32_t>(resize_detail::nearest_source(r, 2, x, P.in[2], P.out[2]).at * P.out[3]);
  return columns;
}();

// The source column of output column x, in elements: nearest_columns_v's with constant parameters.
template <class Params>
constexpr std::ptrdiff_t nearest_column(Params p, const resize_fields& r, std::int32_t x, std::int32_t in_w, std::int64_t depth) {
  if constexpr (constant_params<Params>::value) {
    if constexpr (tflite_nhwc<constant_params<Params>::params>)
      return nearest_columns_v<constant_params<Params>::params>[static_cast<std::size_t>(x)];
  }
  return static_cast<std::ptrdiff_t>(resize_detail::nearest_source(r, 2, x, in_w, p->out[2]).at * depth);
}

// Nearest neighbour: each result element is the input element its coordinates map to (tf_crop_and_resize:
// the extrapolation value outside the input). The trailing dims that are not resized (NHWC's channels) are
// copied as one run per position of the others, as TFLM copies a pixel's depth. Any element type.
template <class Params, class T>
constexpr void resize_nearest(Params p, const T* input, T* output) {
  const std::array<std::int64_t, max_rank> stride = resize_detail::input_strides(p);
  const resize_fields& r = p->resize();
  std::int32_t leading = p->out.rank;  // the dims before the run
  std::int64_t run = 1;
  while (leading > 0 && (r.resized_axes >> (leading - 1) & 1u) == 0) run *= p->out[--leading];
  if (r.coordinates == resize_coordinates::tflite && p->out.rank == 4 && leading == 3 && p->out[0] == p->in[0]) {
    // TFLite's NHWC form as TFLM walks it: a source row per output row, a source pixel per output pixel, its depth
    // copied.
    const std::int32_t in_h = p->in[1], in_w = p->in[2];
    T* to = output;
    for (std::int32_t b = 0; b < p->out[0]; ++b)
      for (std::int32_t y = 0; y < p->out[1]; ++y) {
        const std::int64_t row = static_cast<std::int64_t>(b) * in_h + resize_detail::nearest_source(r, 1, y, in_h, p->out[1]).at;
        const T* source_row = input + row * in_w * run;
        for (std::int32_t x = 0; x < p->out[2]; ++x) {
          const T* from = source_row + nearest_column(p, r, x, in_w, run);
          for (std::int64_t k = 0; k < run; ++k) *to++ = from[k];
        }
      }
    return;
  }
  std::int64_t positions = 1;
  for (std::int32_t d = 0; d < leading; ++d) positions *= p->out[d];
  // Each axis's part of the input offset (and whether it falls outside) is computed when its index changes, not for
  // every position (TFLM likewise maps a row once per row, a column once per pixel).
  std::array<std::int32_t, max_rank> index{};
  std::array<std::int64_t, max_rank> part{};
  std::array<bool, max_rank> part_outside{};
  const auto map_axis = [&](std::int32_t d) {
    const auto du = static_cast<std::size_t>(d);
    const resize_detail::nearest_index source = resize_detail::nearest_source(r, d, index[du], p->in[d], p->out[d]);
    part[du] = source.at * stride[du];
    part_outside[du] = source.outside;
  };
  for (std::int32_t d = 0; d < leading; ++d) map_axis(d);
  for (std::int64_t position = 0; position < positions; ++position) {
    std::int64_t from = 0;
    bool outside = false;
    for (std::int32_t d = 0; d < leading; ++d) {
      outside = outside || part_outside[static_cast<std::size_t>(d)];
      from += part[static_cast<std::size_t>(d)];
    }
    T* to = output + position * run;
    for (std::int64_t k = 0; k < run; ++k) to[k] = outside ? static_cast<T>(r.extrapolation_value()) : input[from + k];
    for (std::int32_t d = leading - 1; d >= 0; --d) {
      const auto du = static_cast<std::size_t>(d);
      const bool carried = ++index[du] == p->out[d];
      if (carried) index[du] = 0;
      map_axis(d);
      if (!carried) break;
    }
  }
}

// TFLM's float ResizeBilinear (NHWC, the rank-4 input): ComputeInterpolationValues per axis, the four
// neighbours weighted in its order of operations.
template <class Params>
constexpr void resize_bilinear_tflite(Params p, const float* input, float* output) {
  const resize_fields& r = p->resize();
  const std::int32_t batches = p->out[0], out_h = p->out[1], out_w = p->out[2], depth = p->out[3];
  const std::int32_t in_h = p->in[1], in_w = p->in[2];
  const float scale_h = resize_detail::tflite_scale(r, in_h, out_h), scale_w = resize_detail::tflite_scale(r, in_w, out_w);
  const auto source = [&](std::int32_t x, float scale, std::int32_t extent) {
    return resize_detail::tflite_linear_source(r, x, scale, extent);
  };
  const auto at = [&](std::int32_t b, std::int64_t y, std::int64_t x, std::int32_t c) {
    return input[((static_cast<std::int64_t>(b) * in_h + y) * in_w + x) * depth + c];
  };
  std::int64_t i = 0;
  for (std::int32_t b = 0; b < batches; ++b)
    for (std::int32_t y = 0; y < out_h; ++y) {
      const resize_detail::linear_coordinate sy = source(y, scale_h, in_h);
      for (std::int32_t x = 0; x < out_w; ++x) {
        const resize_detail::linear_coordinate sx = source(x, scale_w, in_w);
        const float dy = sy.at - static_cast<float>(sy.low), dx = sx.at - static_cast<float>(sx.low);
        for (std::int32_t c = 0; c < depth; ++c)
          output[i++] = at(b, sy.low, sx.low, c) * (1 - dy) * (1 - dx) + at(b, sy.high, sx.low, c) * dy * (1 - dx) +
                        at(b, sy.low, sx.high, c) * (1 - dy) * dx + at(b, sy.high, sx.high, c) * dy * dx +
                        0.0f;  // TFLM's rounding offset (0 for float): a sum of -0 becomes +0
      }
    }
}

// The most neighbours an axis of ONNX's linear and cubic modes weighs (antialias: 2 ceil(radius / scale); the
// importer refuses smaller scales).
inline constexpr std::int32_t max_interpolation_taps = 16;

namespace resize_detail {

// ONNX's interpolation kernels of a distance d >= 0 (in input elements, scaled under antialias): linear's
// triangle (radius 1) and the cubic convolution of coefficient A (radius 2, its reference's polynomials).
struct linear_weight {
  static constexpr double radius = 1.0;
  constexpr double operator()(double d) const { return d < 1.0 ? 1.0 - d : 0.0; }
};
struct cubic_weight {
  static constexpr double radius = 2.0;
  double a = -0.75;
  constexpr double operator()(double d) const {
    if (d <= 1.0) return ((a + 2) * d - (a + 3)) * d * d + 1;
    if (d < 2.0) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
    return 0.0;
  }
};

}  // namespace resize_detail

// ONNX's linear and cubic modes: along each resized axis the neighbours i of the source coordinate v (read
// clamped to the axis: edge padding) weighted W(|i - v| s), W the mode's kernel, s = 1 (the 2 radius nearest
// neighbours) or, under antialias, the axis's scale when it shrinks (2 ceil(radius / s) neighbours, the
// weights normalised); exclude_outside: the neighbours outside the input weigh 0, the others normalised. The
// product of the axes' weights over every combination, summed in double (ONNX's reference interpolates in
// double, one axis after another). tf_crop_and_resize: the extrapolation value outside the input.
template <class Params, class Weight>
constexpr void resize_interpolate_onnx(Params p, const float* input, float* output, Weight weigh) {
  const resize_fields& r = p->resize();
  const std::array<std::int64_t, max_rank> stride = resize_detail::input_strides(p);
  const std::int32_t rank = p->out.rank;
  struct axis_taps {
    std::int32_t count = 0;
    std::array<std::int64_t, max_interpolation_taps> offset{};
    std::array<double, max_interpolation_taps> weight{};
  };
  resize_detail::for_each_result(p, [&](std::int64_t i, const std::array<std::int32_t, max_rank>& index) {
    std::array<axis_taps, max_rank> taps{};
    std::int32_t count = 0;
    std::int64_t base = 0;  // the offset of the axes that are not resized
    bool outside = false;
    for (std::int32_t d = 0; d < rank; ++d) {
      const auto du = static_cast<std::size_t>(d);
      if ((r.resized_axes >> d & 1u) == 0) {
        base += index[du] * stride[du];
        continue;
      }
      const double v = resize_detail::onnx_source(r, d, index[du], p->in[d], p->out[d]);
      outside = outside || resize_detail::extrapolated(r, v, p->in[d]);
      const double scale = r.antialias() && r.scale(d) < 1.0 ? r.scale(d) : 1.0;
      const std::int64_t reach = -resize_detail::floor_int(-Weight::radius / scale);  // ceil(radius / scale)
      const std::int64_t below = resize_detail::floor_int(v);
      axis_taps& t = taps[static_cast<std::size_t>(count++)];
      t.count = static_cast<std::int32_t>(2 * reach);
      double total = 0.0;
      for (std::int32_t k = 0; k < t.count; ++k) {
        const auto ku = static_cast<std::size_t>(k);
        const std::int64_t at = below - reach + 1 + k;
        const double distance = (static_cast<double>(at) - v) * scale;
        const bool excluded = r.exclude_outside() && (at < 0 || at >= p->in[d]);
        t.weight[ku] = excluded ? 0.0 : weigh(distance < 0 ? -distance : distance);
        t.offset[ku] = resize_detail::clamped(at, p->in[d]) * stride[du];
        total += t.weight[ku];
      }
      if ((r.antialias() || r.exclude_outside()) && total != 0.0)
        for (std::int32_t k = 0; k < t.count; ++k) t.weight[static_cast<std::size_t>(k)] /= total;
    }
    if (outside) {
      output[i] = r.extrapolation_value();
      return;
    }
    // Every combination of one neighbour per resized axis (an odometer over the axes' taps).
    std::array<std::int32_t, max_rank> pick{};
    double sum = 0.0;
    for (bool more = true; more;) {
      double weight = 1.0;
      std::int64_t from = base;
      for (std::int32_t k = 0; k < count; ++k) {
        const axis_taps& t = taps[static_cast<std::size_t>(k)];
        const auto at = static_cast<std::size_t>(pick[static_cast<std::size_t>(k)]);
        weight *= t.weight[at];
        from += t.offset[at];
      }
      if (weight != 0.0) sum += weight * static_cast<double>(input[from]);
      more = false;
      for (std::int32_t k = count - 1; k >= 0 && !more; --k) {
        const auto ku = static_cast<std::size_t>(k);
        more = ++pick[ku] < taps[ku].count;
        if (!more) pick[ku] = 0;
      }
    }
    output[i] = static_cast<float>(sum);
  });
}

namespace int8 {

namespace bilinear_detail {

// TFLM's ResizeBilinearInteger's scale of an axis in 1/1024ths, rounded to nearest.
constexpr std::int32_t scale_10(const resize_fields& r, std::int32_t in, std::int32_t out) {
  return r.align_corners() && out > 1 ? ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1) : ((1 << 10) * in + out / 2) / out;
}
// Its source coordinate of result index x (1/1024ths) and the neighbours below and above it, clamped to the axis.
struct coordinate {
  std::int32_t at, low, high;
};
constexpr coordinate source(const resize_fields& r, std::int32_t x, std::int32_t scale, std::int32_t extent) {
  const std::int32_t at = r.half_pixel_centers() ? x * scale + scale / 2 - (1 << 9) : x * scale;
  const std::int32_t low = at / (1 << 10), high = (at + (1 << 10) - 1) / (1 << 10);
  return coordinate{at, low > 0 ? low : 0, high < extent - 1 ? high : extent - 1};
}

}  // namespace bilinear_detail

// TFLM's ResizeBilinearInteger (NHWC, rank 4): scales and coordinates in 1/1024ths, the four neighbours'
// weighted sum in 1/2^20ths, rounded half away from zero (TFLM's default, not TFLITE_SINGLE_ROUNDING).
template <class Params>
void resize_bilinear(Params p, const std::int8_t* input, std::int8_t* output) {
  const resize_fields& r = p->resize();
  const std::int32_t batches = p->out[0], out_h = p->out[1], out_w = p->out[2], depth = p->out[3];
  const std::int32_t in_h = p->in[1], in_w = p->in[2];
  using bilinear_detail::coordinate;
  const auto source = [&](std::int32_t x, std::int32_t scale, std::int32_t extent) { return bilinear_detail::source(r, x, scale, extent); };
  const auto at = [&](std::int32_t b, std::int32_t y, std::int32_t x, std::int32_t c) {
    return static_cast<std::int64_t>(input[((static_cast<std::int64_t>(b) * in_h + y) * in_w + x) * depth + c]);
  };
  const std::int32_t height_scale = bilinear_detail::scale_10(r, in_h, out_h), width_scale = bilinear_detail::scale_10(r, in_w, out_w);
  std::int64_t i = 0;
  for (std::int32_t b = 0; b < batches; ++b)
    for (std::int32_t y = 0; y < out_h; ++y) {
      const coordinate sy = source(y, height_scale, in_h);
      const std::int64_t dy = sy.at - (1 << 10) * sy.low;
      for (std::int32_t x = 0; x < out_w; ++x) {
        const coordinate sx = source(x, width_scale, in_w);
        const std::int64_t dx = sx.at - (1 << 10) * sx.low;
        for (std::int32_t c = 0; c < depth; ++c) {
          const std::int64_t sum = at(b, sy.low, sx.low, c) * ((1 << 10) - dy) * ((1 << 10) - dx) +
                                   at(b, sy.high, sx.low, c) * dy * ((1 << 10) - dx) +
                                   at(b, sy.low, sx.high, c) * ((1 << 10) - dy) * dx + at(b, sy.high, sx.high, c) * dy * dx;
          const std::int64_t round = sum > 0 ? (1 << 19) : -(1 << 19);
          output[i++] = static_cast<std::int8_t>((sum + round) / (1 << 20));
        }
      }
    }
}

}  // namespace int8

}  // namespace ctnn::kernel::reference
