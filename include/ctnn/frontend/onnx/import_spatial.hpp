#pragma once
// The ONNX importer's spatial ops (import_table.hpp's rows): Resize and Upsample (ops/resize.hpp, ONNX's
// coordinates in double, as its reference implementation computes them), Expand and Tile (ops/tile.hpp),
// LpNormalization (ops/l2_normalization.hpp).
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/import_elementwise.hpp>
#include <ctnn/frontend/onnx/import_layouts.hpp>
#include <ctnn/frontend/onnx/import_state.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/resize.hpp>

namespace ctnn::onnx::detail {

// What Resize's and Upsample's attributes and constant operands say, per ONNX axis.
struct resize_request {
  op_kind kind = op_kind::resize_nearest;
  resize_coordinates coordinates = resize_coordinates::half_pixel;
  nearest_rounding rounding = nearest_rounding::round_prefer_floor;
  std::array<double, max_rank> scale{};
  std::array<std::int64_t, max_rank> size{};
  std::array<float, 2 * max_rank> roi{};  // tf_crop_and_resize: axis d's region [roi[2d], roi[2d + 1]]
};

// Whether |a - b| <= 1e-9 * max(|a|, |b|) (Python's math.isclose, which ONNX's reference asks of an axis it
// leaves as it is).
constexpr bool is_close(double a, double b) {
  const double difference = a > b ? a - b : b - a;
  const double larger = (a < 0 ? -a : a) > (b < 0 ? -b : b) ? (a < 0 ? -a : a) : (b < 0 ? -b : b);
  return difference <= 1e-9 * larger;
}

// Reads the scales (FLOAT, one per axis of `axes`) or sizes (INT64) of operand `slot` into `r`: false after a
// diagnostic or when the operand is absent or empty.
template <class S>
constexpr bool read_resize_operand(S& s, const operands& o, std::uint32_t slot, bool sizes, const shape& xs,
                                   const std::array<std::int32_t, max_rank>& axes, std::int32_t axis_count, resize_request& r) {
  if (o.count <= slot || o.id[slot] < 0) return false;
  if (!expect_constant(s, o, slot)) return false;
  std::int64_t count = 0;
  if (sizes) s.constant_int(o.id[slot], slot, 0, count);
  else s.constant_float_at(o.id[slot], slot, 0, count);
  if (s.failed() || count == 0) return false;
  if (count != axis_count) return s.operand_error(slot), false;
  for (std::int32_t k = 0; k < axis_count; ++k) {
    const auto d = static_cast<std::size_t>(axes[static_cast<std::size_t>(k)]);
    if (sizes) {
      const std::int64_t size = s.constant_int(o.id[slot], slot, static_cast<std::uint32_t>(k), count);
      if (size < 1 || size > (std::int64_t{1} << 24)) return s.operand_value_error(slot, k, size), false;
      r.size[d] = size;
      r.scale[d] = static_cast<double>(size) / xs[static_cast<std::int32_t>(d)];
    } else {
      const float scale = s.constant_float_at(o.id[slot], slot, static_cast<std::uint32_t>(k), count);
      const double size = static_cast<double>(scale) * xs[static_cast<std::int32_t>(d)];
      if (!(scale > 0.0f) || !(size >= 1.0) || size > static_cast<double>(std::int64_t{1} << 24))
        return s.operand_value_error(slot, k, scale), false;
      r.scale[d] = scale;
      r.size[d] = static_cast<std::int64_t>(size);  // ONNX's output size: floor(scale * extent)
    }
  }
  return !s.failed();
}

// Resize (opset 10: X, scales; 11 on: X, roi, scales, sizes; 18 on: axes, keep_aspect_ratio_policy) and
// Upsample (opset 7: the scales attribute; 9: the scales operand): mode nearest (nearest_mode), linear or
// cubic (cubic_coeff_a, exclude_outside; antialias down to scale 1/8, cubic 1/4), every coordinate_transformation_mode (tf_crop_and_resize: a constant roi,
// extrapolation_value); scales and sizes constant. Resize-10 and Upsample take ONNX's reference of Upsample:
// asymmetric coordinates, nearest rounding down. Refused, naming the attribute or operand: antialias or
// exclude_outside with nearest, antialias below those scales; a non-constant roi, scales or sizes operand.
template <class S>
constexpr void import_resize(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool upsample = s.current == op_type::Upsample;
  const std::int64_t opset = s.f.opset();
  const bool legacy = upsample || opset < 11;  // Upsample, Resize-10: X and scales
  const bool scales_attribute = upsample && opset < 9;
  if (!expect_inputs(s, o, scales_attribute ? 1 : legacy ? 2 : 1, scales_attribute ? 1 : legacy ? 2 : 4)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::string_view mode = s.f.string_attribute(s.f.attribute(n, "mode"), "nearest");
  const std::string_view transform = s.f.string_attribute(s.f.attribute(n, "coordinate_transformation_mode"), "half_pixel");
  const std::string_view nearest_mode = s.f.string_attribute(s.f.attribute(n, "nearest_mode"), "round_prefer_floor");
  const std::string_view policy = s.f.string_attribute(s.f.attribute(n, "keep_aspect_ratio_policy"), "stretch");
  const std::int64_t antialias = int_attribute(s, n, "antialias", 0);
  const std::int64_t exclude_outside = int_attribute(s, n, "exclude_outside", 0);
  if (s.failed() || s.take_reader_error()) return;

  resize_request r{};
  r.kind = mode == "nearest" ? op_kind::resize_nearest
           : mode == "cubic" && !legacy ? op_kind::resize_cubic
           : mode == "linear" || mode == "bilinear" ? op_kind::resize_linear
                                                     : op_kind::none;
  if (r.kind == op_kind::none) return s.string_attribute_error(n, "mode", attribute::mode);
  const bool nearest = r.kind == op_kind::resize_nearest;
  if (!nearest && !expect_float(s, o, 0)) return;
  if (legacy) {
    r.coordinates = resize_coordinates::asymmetric;
    r.rounding = nearest_rounding::floor;
  } else {
    using enum resize_coordinates;
    r.coordinates = transform == "half_pixel"             ? half_pixel
                    : transform == "asymmetric"           ? asymmetric
                    : transform == "pytorch_half_pixel"   ? pytorch_half_pixel
                    : transform == "align_corners"        ? align_corners
                    : transform == "half_pixel_symmetric" ? half_pixel_symmetric
                    : transform == "tf_half_pixel_for_nn" ? tf_half_pixel_for_nn
                    : transform == "tf_crop_and_resize"   ? tf_crop_and_resize
                                                          : tflite;  // not one ctnn takes
    if (r.coordinates == tflite)
      return s.string_attribute_error(n, "coordinate_transformation_mode", attribute::coordinate_transformation_mode);
    using enum nearest_rounding;
    r.rounding = nearest_mode == "round_prefer_floor"  ? round_prefer_floor
                 : nearest_mode == "round_prefer_ceil" ? round_prefer_ceil
                 : nearest_mode == "floor"             ? floor
                                                       : ceil;
    if (nearest_mode != "ceil" && r.rounding == ceil) return s.string_attribute_error(n, "nearest_mode", attribute::nearest_mode);
  }
  if (exclude_outside != 0 && nearest) return s.attribute_error(attribute::exclude_outside, exclude_outside);
  if (antialias != 0 && nearest) return s.attribute_error(attribute::antialias, antialias);
  const float extrapolation = float_attribute(s, n, "extrapolation_value", 0.0f);
  const float cubic_coeff_a = float_attribute(s, n, "cubic_coeff_a", -0.75f);
  if (s.take_reader_error()) return;
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return s.string_attribute_error(n, "keep_aspect_ratio_policy", attribute::keep_aspect_ratio_policy);

  // The axes the scales or sizes name (opset 18: the axes attribute; else every axis).
  std::array<std::int32_t, max_rank> axes{};
  std::int32_t axis_count = xs.rank;
  for (std::int32_t d = 0; d < xs.rank; ++d) {
    axes[static_cast<std::size_t>(d)] = d;
    r.scale[static_cast<std::size_t>(d)] = 1.0;
    r.size[static_cast<std::size_t>(d)] = xs[d];
  }
  const attribute_view axes_attribute = s.f.attribute(n, "axes");
  if (axes_attribute.present()) {
    const std::uint32_t count = s.f.ints_count(axes_attribute);
    if (s.take_reader_error()) return;
    if (count < 1 || count > static_cast<std::uint32_t>(xs.rank)) return s.attribute_error(attribute::axes, count);
    std::uint32_t seen = 0;
    for (std::uint32_t k = 0; k < count; ++k) {
      std::int64_t axis = s.f.ints_at(axes_attribute, k);
      if (axis < 0) axis += xs.rank;
      if (axis < 0 || axis >= xs.rank || (seen >> axis & 1u) != 0) return s.axis_error(s.f.ints_at(axes_attribute, k), xs.rank);
      seen |= 1u << axis;
      axes[k] = static_cast<std::int32_t>(axis);
    }
    axis_count = static_cast<std::int32_t>(count);
  }

  // tf_crop_and_resize's region: roi (a constant FLOAT operand), the starts then the ends of the named axes.
  for (std::int32_t d = 0; d < xs.rank; ++d) r.roi[static_cast<std::size_t>(2 * d + 1)] = 1.0f;
  if (r.coordinates == resize_coordinates::tf_crop_and_resize) {
    if (!expect_constant(s, o, 1)) return;
    std::int64_t count = 0;
    s.constant_float_at(o.id[1], 1, 0, count);
    if (s.failed()) return;
    if (count != 2 * axis_count) return s.operand_error(1);
    for (std::int32_t k = 0; k < axis_count; ++k) {
      const auto d = static_cast<std::size_t>(axes[static_cast<std::size_t>(k)]);
      r.roi[2 * d] = s.constant_float_at(o.id[1], 1, static_cast<std::uint32_t>(k), count);
      r.roi[2 * d + 1] = s.constant_float_at(o.id[1], 1, static_cast<std::uint32_t>(k + axis_count), count);
      // A region far outside [0, 1] maps every result outside the input; bounded, its coordinates stay far
      // inside the kernel's integers (NaN is refused too).
      for (const std::int32_t at : {k, k + axis_count})
        if (const float v = r.roi[2 * d + (at == k ? 0 : 1)]; !(v >= -65536.0f && v <= 65536.0f)) return s.operand_value_error(1, at, v);
    }
  }

  bool from_sizes = false;
  if (scales_attribute) {
    const attribute_view a = s.f.attribute(n, "scales");
    const std::uint32_t count = s.f.floats_count(a);
    if (s.take_reader_error()) return;
    if (count != static_cast<std::uint32_t>(xs.rank)) return s.attribute_error(attribute::scales, count);
    for (std::int32_t d = 0; d < xs.rank; ++d) {
      const float scale = s.f.floats_at(a, static_cast<std::uint32_t>(d));
      const double size = static_cast<double>(scale) * xs[d];
      if (!(scale > 0.0f) || !(size >= 1.0) || size > static_cast<double>(std::int64_t{1} << 24))
        return s.attribute_error(attribute::scales, d);
      r.scale[static_cast<std::size_t>(d)] = scale;
      r.size[static_cast<std::size_t>(d)] = static_cast<std::int64_t>(size);
    }
  } else {
    const std::uint32_t scales_slot = legacy ? 1 : 2;
    const bool from_scales = read_resize_operand(s, o, scales_slot, false, xs, axes, axis_count, r);
    if (s.failed()) return;
    from_sizes = !from_scales && !legacy && read_resize_operand(s, o, 3, true, xs, axes, axis_count, r);
    if (s.failed()) return;
    if (!from_scales && !from_sizes) return s.operand_error(o.count > 3 && o.id[3] >= 0 ? 3 : scales_slot);
  }
  // keep_aspect_ratio_policy (sizes only): one scale for the named axes, the smallest or the largest of
  // size / extent, and the sizes it gives (rounded half up).
  if (from_sizes && policy != "stretch") {
    double chosen = r.scale[static_cast<std::size_t>(axes[0])];
    for (std::int32_t k = 1; k < axis_count; ++k) {
      const double here = r.scale[static_cast<std::size_t>(axes[static_cast<std::size_t>(k)])];
      chosen = policy == "not_larger" ? (here < chosen ? here : chosen) : (here > chosen ? here : chosen);
    }
    for (std::int32_t k = 0; k < axis_count; ++k) {
      const auto d = static_cast<std::size_t>(axes[static_cast<std::size_t>(k)]);
      r.scale[d] = chosen;
      r.size[d] = static_cast<std::int64_t>(chosen * xs[static_cast<std::int32_t>(d)] + 0.5);
      if (r.size[d] < 1) return s.operand_value_error(3, k, r.size[d]);
    }
  }

  // An axis of scale 1 (within 1e-9) keeping its extent is left as it is (ONNX's reference skips it).
  resize_fields fields{};
  fields.coordinates = r.coordinates;
  fields.rounding = r.rounding;
  fields.onnx_options = (antialias != 0 ? resize_fields::antialias_bit : 0u) |
                        (exclude_outside != 0 ? resize_fields::exclude_outside_bit : 0u);
  fields.cubic_coeff_bits = std::bit_cast<std::uint32_t>(cubic_coeff_a);
  fields.extrapolation_bits = std::bit_cast<std::uint32_t>(extrapolation);
  const bool nhwc = xs.rank == 4 && prefers_nhwc(s, o.id[0]);
  shape target = xs;
  for (std::int32_t d = 0; d < xs.rank; ++d) {
    // IR dim d holds ONNX dim d, or (NHWC) ONNX dim nchw_of_nhwc[d].
    const auto from = static_cast<std::size_t>(nhwc ? nchw_of_nhwc[static_cast<std::size_t>(d)] : d);
    const double scale = r.scale[from];
    const auto extent = static_cast<std::int32_t>(r.size[from]);
    target.dims[static_cast<std::size_t>(d)] = extent;
    const float roi_start = r.roi[2 * from], roi_end = r.roi[2 * from + 1];
    if (is_close(scale, 1.0) && extent == xs[static_cast<std::int32_t>(from)] && roi_start == 0.0f && is_close(roi_end, 1.0))
      continue;
    // Antialias weighs 2 ceil(radius / scale) neighbours (radius 1, cubic 2): at most max_interpolation_taps.
    if (antialias != 0 && scale * (kernel::reference::max_interpolation_taps / 2) < (r.kind == op_kind::resize_cubic ? 2.0 : 1.0))
      return s.attribute_error(attribute::antialias, antialias);
    fields.resized_axes |= 1u << d;
    fields.roi_bits[static_cast<std::size_t>(2 * d)] = std::bit_cast<std::uint32_t>(roi_start);
    fields.roi_bits[static_cast<std::size_t>(2 * d + 1)] = std::bit_cast<std::uint32_t>(roi_end);
    resize_fields::to_words(fields.scale_words, d, scale);
    resize_fields::to_words(fields.length_words, d, scale * xs[static_cast<std::int32_t>(from)]);
  }
  if (s.pass_too_large(target))  // a result of 2^31 bytes or more
    return scales_attribute ? s.attribute_error(attribute::scales, 0) : s.operand_error(from_sizes ? 3 : legacy ? 1 : 2);
  op_attributes a{};
  a.set(fields);
  a.target = target;
  const std::int32_t x = nhwc ? as_nhwc(s, o.id[0], 0) : as_onnx(s, o.id[0], 0);
  define(s, result, s.add_node(r.kind, a, {x}, s.label_of(result)), nhwc);
}

// Expand (its shape broadcast with the input's, numpy's rule both ways) and Tile (repeats, one per dim, each
// >= 1), the shape or repeats a constant INT64 vector: the input reshaped to the result's rank (leading unit
// dims), then a tile, in the ONNX layout. Any element type.
template <class S>
constexpr void import_tile(S& s, const node_view&, const operands& o, std::int32_t result) {
  const bool expand = s.current == op_type::Expand;
  if (!expect_inputs(s, o, 2, 2) || !expect_constant(s, o, 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  std::int64_t count = 0;
  s.constant_int(o.id[1], 1, 0, count);
  if (s.failed()) return;
  if (s.constant_shape(o.id[1]).rank != 1 || count > static_cast<std::int64_t>(max_rank) || (!expand && count != xs.rank))
    return s.operand_error(1);
  const std::int32_t rank = expand && count > xs.rank ? static_cast<std::int32_t>(count) : xs.rank;
  shape padded{}, out{};
  padded.rank = out.rank = rank;
  for (std::int32_t d = 0; d < rank; ++d) {
    const std::int32_t from = d < rank - xs.rank ? 1 : xs[d - (rank - xs.rank)];
    const std::int64_t k = d - (rank - count);  // the element of the shape or repeats for dim d (< 0: none)
    const std::int64_t v = k < 0 ? 1 : s.constant_int(o.id[1], 1, static_cast<std::uint32_t>(k), count);
    if (v < 1 || v > (std::int64_t{1} << 24) || (expand && from != 1 && v != 1 && v != from))
      return s.operand_value_error(1, k, v);
    const std::int64_t extent = !expand ? from * v : v == 1 ? from : v;  // below 2^55: v is checked first
    if (extent > std::int64_t{INT32_MAX}) return s.operand_value_error(1, k, v);
    padded.dims[static_cast<std::size_t>(d)] = from;
    out.dims[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(extent);
  }
  if (s.pass_too_large(out)) return s.operand_error(1);
  const name label = s.label_of(result);
  std::int32_t x = as_onnx(s, o.id[0], 0);
  if (padded != xs) x = s.reshape(x, padded, label);
  op_attributes a{};
  a.target = out;
  define(s, result, s.add_node(s.current_kind, a, {x}, label), false);  // the row's: tile
}

// LpNormalization with p 2 or 1 (float32; axis, default -1): x over its L2 norm (l2_normalization, the row's
// kind) or the sum of its magnitudes (l1_normalization) along the axis, in the ONNX layout (epsilon 0; a zero
// vector gives zeros, as ONNX's reference). Other p are refused.
template <class S>
constexpr void import_lp_normalization(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_float(s, o, 0)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t p = int_attribute(s, n, "p", 2);
  const std::int64_t axis = int_attribute(s, n, "axis", -1);
  if (s.failed() || s.take_reader_error()) return;
  if (p != 2 && p != 1) return s.attribute_error(attribute::p, p);
  if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  op_attributes a{};
  a.norm = {static_cast<std::int32_t>(axis), 0u};
  const op_kind kind = p == 1 ? op_kind::l1_normalization : s.current_kind;
  define(s, result, s.add_node(kind, a, {as_onnx(s, o.id[0], 0)}, s.label_of(result)), false);
}

}  // namespace ctnn::onnx::detail
