#pragma once
// The ONNX importer's ops that move or pad data (import.hpp; rows in import_table.hpp): Reshape, Flatten,
// Concat, Pad, Transpose, BatchNormalization, and the shape family: Squeeze, Unsqueeze and Identity
// (reshapes), Slice and Split (slices), DepthToSpace and SpaceToDepth (a reshape, a transpose and a reshape).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/import_layouts.hpp>
#include <ctnn/ops/infer.hpp>

namespace ctnn::onnx::detail {

template <class S>
constexpr void import_reshape(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool from_input = s.f.opset() >= 5;
  if (!expect_inputs(s, o, from_input ? 2 : 1, from_input ? 2 : 1)) return;
  shape target{};
  std::int64_t count = 0;
  if (from_input) {
    if (!expect_constant(s, o, 1)) return;
    s.constant_int(o.id[1], 1, 0, count);
    if (s.failed()) return;
    if (s.constant_shape(o.id[1]).rank != 1) return s.operand_error(1);
    if (count > static_cast<std::int64_t>(max_rank))
      return s.fail(onnx_error::rank_too_high, {.byte_offset = s.at(o.id[1]).name.at, .rank_actual = count});
    for (std::uint32_t k = 0; k < count && !s.failed(); ++k) {
      const std::int64_t extent = s.constant_int(o.id[1], 1, k, count);
      if (extent < -1 || extent > 0x7fffffff) return s.operand_value_error(1, k, extent);
      target.dims[k] = static_cast<std::int32_t>(extent);
    }
  } else {
    const attribute_view a = s.f.attribute(n, "shape");
    count = s.f.ints_count(a);
    if (count > static_cast<std::int64_t>(max_rank))
      return s.fail(onnx_error::rank_too_high, {.byte_offset = 0, .rank_actual = count});
    for (std::uint32_t k = 0; k < count; ++k) {
      const std::int64_t extent = s.f.ints_at(a, k);
      if (extent < -1 || extent > 0x7fffffff) return s.attribute_error(attribute::shape, extent);
      target.dims[k] = static_cast<std::int32_t>(extent);
    }
  }
  if (s.failed() || s.take_reader_error()) return;
  target.rank = static_cast<std::int32_t>(count);
  bool zero = false;
  for (std::int32_t d = 0; d < target.rank; ++d) zero = zero || target[d] == 0;
  if (zero && int_attribute(s, n, "allowzero", 0) != 0) return s.attribute_error(attribute::allowzero, 1);
  if (s.is_known(o.id[0])) return known_reshaped(s, result, o.id[0], target);
  if (target.rank == 0) target = make_shape(1);  // a scalar: one element ("rank 0" is "keep" in the IR)
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  define(s, result, s.reshape(x, target, s.label_of(result)), false);
}

template <class S>
constexpr void import_flatten(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  std::int64_t axis = int_attribute(s, n, "axis", 1);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < 0) axis += xs.rank;
  if (axis < 0 || axis > xs.rank) return s.axis_error(axis, xs.rank);
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  define(s, result, s.reshape(x, flattened_at(xs, axis), s.label_of(result)), false);
}

template <class S>
constexpr void import_concat(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, max_node_inputs)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const attribute_view axis_attribute = s.f.attribute(n, "axis");
  std::int64_t axis = s.f.int_attribute(axis_attribute, 1);
  if (s.failed() || s.take_reader_error()) return;
  if (!axis_attribute.present() && s.f.opset() >= 4) return s.attribute_error(attribute::axis, -1);
  if (axis < 0) axis += xs.rank;
  if (axis < 0 || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  bool nhwc = xs.rank == 4;
  bool any_nhwc = false;
  for (std::uint32_t k = 0; k < o.count; ++k) {
    if (o.id[k] < 0) return s.operand_error(k);
    any_nhwc = any_nhwc || prefers_nhwc(s, o.id[k]);
  }
  nhwc = nhwc && any_nhwc;
  std::array<std::int32_t, max_node_inputs> inputs{};
  for (std::uint32_t k = 0; k < o.count; ++k) inputs[k] = nhwc ? as_nhwc(s, o.id[k], k) : as_onnx(s, o.id[k], k);
  if (s.failed()) return;
  const std::int32_t axis_held = nhwc ? nhwc_of_nchw[static_cast<std::size_t>(axis)] : static_cast<std::int32_t>(axis);
  define(s, result, s.concat(inputs, o.count, axis_held, s.label_of(result)), nhwc);
}

template <class S>
constexpr void import_pad(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool from_input = s.f.opset() >= 11;
  if (!expect_inputs(s, o, from_input ? 2 : 1, from_input ? 4 : 1) || !expect_activation(s, o, 0)) return;
  const std::string_view mode = s.f.string_attribute(s.f.attribute(n, "mode"), "constant");
  if (s.take_reader_error()) return;
  const pad_mode fill_mode = mode == "reflect" ? pad_mode::reflect
                             : mode == "edge"  ? pad_mode::edge
                             : mode == "wrap"  ? pad_mode::wrap
                                               : pad_mode::constant;
  if (mode != "constant" && fill_mode == pad_mode::constant)
    return s.string_attribute_error(n, "mode", attribute::mode);
  const shape xs = onnx_shape(s, o.id[0]);
  std::array<std::int64_t, 2 * max_rank> pads{};
  float fill = 0.0f;
  std::int64_t count = 0;
  if (from_input) {
    if (!expect_constant(s, o, 1)) return;
    s.constant_int(o.id[1], 1, 0, count);
    if (s.failed()) return;
    // axes (opset 18): pads name these dims only ([begins..., ends...] in axes' order).
    std::array<std::int32_t, max_rank> axes{};
    std::int64_t axis_count = xs.rank;
    for (std::int32_t d = 0; d < xs.rank; ++d) axes[static_cast<std::size_t>(d)] = d;
    if (o.count > 3 && o.id[3] >= 0) {
      if (!expect_constant(s, o, 3)) return;
      s.constant_int(o.id[3], 3, 0, axis_count);
      if (s.failed()) return;
      if (axis_count > xs.rank) return s.operand_error(3);
      for (std::uint32_t k = 0; k < axis_count; ++k) {
        std::int64_t axis = s.constant_int(o.id[3], 3, k, axis_count);
        if (axis < 0) axis += xs.rank;
        if (axis < 0 || axis >= xs.rank) return s.axis_error(axis, xs.rank);
        axes[k] = static_cast<std::int32_t>(axis);
      }
    }
    if (count != 2 * axis_count) return s.operand_error(1);
    for (std::uint32_t k = 0; k < axis_count; ++k) {
      pads[static_cast<std::size_t>(axes[k])] = s.constant_int(o.id[1], 1, k, count);
      pads[static_cast<std::size_t>(axes[k] + xs.rank)] =
          s.constant_int(o.id[1], 1, static_cast<std::uint32_t>(k + axis_count), count);
    }
    count = 2 * xs.rank;
    if (o.count > 2 && o.id[2] >= 0) fill = expect_constant(s, o, 2) ? constant_scalar(s, o.id[2], 2) : 0.0f;
  } else {
    const attribute_view a = s.f.attribute(n, s.f.opset() >= 2 ? "pads" : "paddings");
    count = s.f.ints_count(a);
    if (s.take_reader_error()) return;
    if (count != 2 * xs.rank) return s.attribute_error(attribute::pads, count);
    for (std::uint32_t k = 0; k < count; ++k) pads[k] = s.f.ints_at(a, k);
    fill = float_attribute(s, n, "value", 0.0f);
  }
  if (s.failed() || s.take_reader_error()) return;
  for (std::int32_t k = 0; k < 2 * xs.rank; ++k)
    if (pads[static_cast<std::size_t>(k)] < 0 || pads[static_cast<std::size_t>(k)] > max_window_value)
      return s.attribute_error(attribute::pads, pads[static_cast<std::size_t>(k)]);
  // An integer tensor's fill value must be one of its values (the kernel converts it to the element type).
  if (const dtype type = element_type(s, o.id[0]); type != dtype::f32 && !fits(fill, type)) return s.operand_error(2);
  const bool nhwc = prefers_nhwc(s, o.id[0]);
  pad_fields fields{};
  fields.fill_value_bits = std::bit_cast<std::uint32_t>(fill);
  fields.mode = fill_mode;
  for (std::int32_t d = 0; d < xs.rank; ++d) {
    // IR dim d holds ONNX dim d, or (NHWC) ONNX dim nchw_of_nhwc[d]; ONNX pads are [begins..., ends...].
    const std::int32_t source = nhwc ? nchw_of_nhwc[static_cast<std::size_t>(d)] : d;
    fields.before_after[static_cast<std::size_t>(2 * d)] =
        static_cast<std::int32_t>(pads[static_cast<std::size_t>(source)]);
    fields.before_after[static_cast<std::size_t>(2 * d + 1)] =
        static_cast<std::int32_t>(pads[static_cast<std::size_t>(source + xs.rank)]);
  }
  const std::int32_t x = nhwc ? as_nhwc(s, o.id[0], 0) : as_onnx(s, o.id[0], 0);
  define(s, result, s.pad(x, fields, s.label_of(result)), nhwc);
}

// Transpose (perm: a permutation of the dims; absent: reversed). An input held in NHWC alone is
// transposed from there, the two permutations composed. A rank-4 [N, H, W, C] -> [N, C, H, W] (perm 0, 3, 1, 2,
// as converters from NHWC frameworks write around each op) of a value in its ONNX layout is that tensor, held
// in NHWC: no node, and the NHWC op after it reads it as it is.
// A known value transposed by `perm` (torch's F.pad with computed pads, opset 11 on: the pads list reshaped to
// [n, 2], reversed by a Slice, transposed and flattened into ONNX's order; Swin's window padding).
template <class S>
constexpr void known_transposed(S& s, std::int32_t result, std::int32_t v, const std::array<std::int32_t, max_rank>& perm) {
  const shape xs = s.known_of(v).dims;
  shape out = xs;
  for (std::int32_t d = 0; d < xs.rank; ++d) out.dims[static_cast<std::size_t>(d)] = xs[perm[static_cast<std::size_t>(d)]];
  const std::int32_t first = s.make_known(result, out, s.known_of(v).type);
  for (std::int64_t k = 0; first >= 0 && k < out.elements(); ++k) {
    // Result element k's index along each result dim d is its source's index along dim perm[d].
    std::array<std::int64_t, max_rank> at{};
    for (std::int64_t d = out.rank - 1, rest = k; d >= 0; --d) {
      at[static_cast<std::size_t>(perm[static_cast<std::size_t>(d)])] = rest % out[static_cast<std::int32_t>(d)];
      rest /= out[static_cast<std::int32_t>(d)];
    }
    std::int64_t source = 0;
    for (std::int32_t d = 0; d < xs.rank; ++d) source = source * xs[d] + at[static_cast<std::size_t>(d)];
    s.known_data[static_cast<std::size_t>(first + k)] = s.known_at(v, source);
  }
}

template <class S>
constexpr void import_transpose(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const attribute_view given = s.f.attribute(n, "perm");
  if (s.failed() || s.take_reader_error()) return;
  std::array<std::int32_t, max_rank> perm{};
  const std::uint32_t count = given.present() ? s.f.ints_count(given) : static_cast<std::uint32_t>(xs.rank);
  if (s.take_reader_error()) return;
  if (count != static_cast<std::uint32_t>(xs.rank)) return s.attribute_error(attribute::perm, count);
  for (std::int32_t d = 0; d < xs.rank; ++d) {
    const std::int64_t from = given.present() ? s.f.ints_at(given, static_cast<std::uint32_t>(d)) : xs.rank - 1 - d;
    if (from < 0 || from >= xs.rank) return s.attribute_error(attribute::perm, from);
    perm[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(from);
  }
  if (s.take_reader_error()) return;
  if (s.is_known(o.id[0])) return known_transposed(s, result, o.id[0], perm);
  const value& x = s.at(o.id[0]);
  // A constant is folded; a 1-D value held as [N, 1, L, C] is read in its ONNX layout.
  std::int32_t source = s.is_constant(o.id[0]) || x.one_d ? as_onnx(s, o.id[0], 0) : x.onnx_layout;
  const bool to_nchw = xs.rank == 4 && perm[0] == nhwc_of_nchw[0] && perm[1] == nhwc_of_nchw[1] &&
                       perm[2] == nhwc_of_nchw[2] && perm[3] == nhwc_of_nchw[3];
  if (to_nchw && source >= 0 && !s.is_constant(o.id[0]) && !x.one_d) return define(s, result, source, true);
  if (source < 0 && !s.failed()) {  // NHWC only: ONNX dim k is NHWC dim nhwc_of_nchw[k]
    source = x.nhwc;
    for (std::int32_t d = 0; d < xs.rank; ++d)
      perm[static_cast<std::size_t>(d)] = nhwc_of_nchw[static_cast<std::size_t>(perm[static_cast<std::size_t>(d)])];
  }
  define(s, result, s.transpose(source, perm, s.label_of(result)), false);
}

template <class S>
constexpr void import_batch_norm(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 5, 5) || !expect_activation(s, o, 0)) return;
  for (std::uint32_t k = 1; k < 5; ++k)
    if (!expect_constant(s, o, k)) return;
  if (int_attribute(s, n, "training_mode", 0) != 0) return s.attribute_error(attribute::training_mode, 1);
  if (s.f.opset() < 9 && int_attribute(s, n, "spatial", 1) != 1) return s.attribute_error(attribute::spatial, 0);
  const float epsilon = float_attribute(s, n, "epsilon", 1e-5f);
  const shape xs = onnx_shape(s, o.id[0]);
  if (s.failed() || s.take_reader_error()) return;
  if (xs.rank < 2 || xs.rank > 4) return s.rank_error(0, xs);
  // The channels (ONNX axis 1) are the last axis of an NHWC tensor (a 1-D [N, C, L] one: [N, 1, L, C]) and
  // of a [N, C] one.
  const std::int32_t x = xs.rank == 4   ? as_nhwc(s, o.id[0], 0)
                         : xs.rank == 3 ? as_nhwc_1d(s, o.id[0], 0)
                                        : as_onnx(s, o.id[0], 0);
  std::array<std::int32_t, 4> parameters{};
  for (std::uint32_t k = 1; k < 5; ++k) {
    if (s.constant_shape(o.id[k]).elements() != xs[1]) return s.operand_error(k);
    parameters[k - 1] = s.gathered(o.id[k], k, make_shape(xs[1]), {1, 0, 0, 0}, 1.0f);
  }
  op_attributes a{};
  a.batch_norm.epsilon_bits = std::bit_cast<std::uint32_t>(epsilon);
  define(s, result,
         s.add_node(s.current_kind, a, {x, parameters[0], parameters[1], parameters[2], parameters[3]},
                    s.label_of(result)),
         xs.rank >= 3, xs.rank == 3);
}


// A list of int64 values of a node: constant operand `slot` (an INT64 tensor of rank <= 1; absent: none) when
// `from_input`, else the ints attribute `name`. At most max_rank values.
struct int_list {
  std::array<std::int64_t, max_rank> values{};
  std::int32_t count = 0;
  bool present = false;
};
template <class S>
constexpr int_list read_ints(S& s, const node_view& n, const operands& o, bool from_input, std::uint32_t slot,
                             std::string_view name, attribute which) {
  int_list list{};
  std::int64_t count = 0;
  if (from_input) {
    if (o.count <= slot || o.id[slot] < 0) return list;
    if (!expect_constant(s, o, slot)) return list;
    s.constant_int(o.id[slot], slot, 0, count);
    if (s.failed()) return list;
    if (s.constant_shape(o.id[slot]).rank > 1 || count > static_cast<std::int64_t>(max_rank)) return s.operand_error(slot), list;
    for (std::uint32_t k = 0; k < count; ++k) list.values[k] = s.constant_int(o.id[slot], slot, k, count);
  } else {
    const attribute_view a = s.f.attribute(n, name);
    if (!a.present()) return list;
    count = s.f.ints_count(a);
    if (s.take_reader_error()) return list;
    if (count > static_cast<std::int64_t>(max_rank)) return s.attribute_error(which, count), list;
    for (std::uint32_t k = 0; k < count; ++k) list.values[k] = s.f.ints_at(a, k);
  }
  if (s.failed() || s.take_reader_error()) return list;
  list.count = static_cast<std::int32_t>(count);
  list.present = true;
  return list;
}

// The axes of a list made non-negative against `rank`, each once: a bit per axis, or -1 after a diagnostic.
template <class S>
constexpr std::int64_t axis_bits(S& s, const int_list& axes, std::int32_t rank) {
  std::int64_t bits = 0;
  for (std::int32_t k = 0; k < axes.count; ++k) {
    std::int64_t axis = axes.values[static_cast<std::size_t>(k)];
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank || (bits >> axis & 1) != 0) return s.axis_error(axes.values[static_cast<std::size_t>(k)], rank), -1;
    bits |= std::int64_t{1} << axis;
  }
  return bits;
}

// The value as a reshape of its ONNX layout to `target` (rank 0: a scalar, one element). A view.
template <class S>
constexpr void define_reshaped(S& s, std::int32_t result, std::int32_t x, const shape& target) {
  define(s, result, s.reshape(x, target.rank > 0 ? target : make_shape(1), s.label_of(result)), false);
}

// A known value (import_known.hpp) reshaped to `target` (Reshape's 0: the extent kept, -1: the rest; rank
// 0: a scalar), its elements as they are; of another element count, operand_value.
template <class S>
constexpr void known_reshaped(S& s, std::int32_t result, std::int32_t v, shape target) {
  const shape xs = s.known_of(v).dims;
  std::int64_t product = 1;
  std::int32_t rest = -1;
  for (std::int32_t d = 0; d < target.rank; ++d) {
    auto& extent = target.dims[static_cast<std::size_t>(d)];
    if (extent == 0 && d < xs.rank) extent = xs[d];
    if (extent == -1 && rest < 0) rest = d;
    else if (extent < 0) return s.operand_value_error(1, d, std::int64_t{extent});
    else if (extent > 0 && product > (std::int64_t{1} << 40) / extent) return s.operand_value_error(1, d, std::int64_t{extent});
    else product *= extent;
  }
  if (rest >= 0) target.dims[static_cast<std::size_t>(rest)] = product > 0 ? static_cast<std::int32_t>(xs.elements() / product) : 0;
  if (target.elements() != xs.elements()) return s.operand_value_error(1, 0, target.elements());
  const std::int32_t first = s.make_known(result, target, s.known_of(v).type);
  for (std::int64_t k = 0; first >= 0 && k < xs.elements(); ++k) s.known_data[static_cast<std::size_t>(first + k)] = s.known_at(v, k);
}

// A known value sliced by `window` (Slice; an empty result is a known value too).
template <class S>
constexpr void known_sliced(S& s, std::int32_t result, std::int32_t v, const slice_fields& window) {
  const shape xs = s.known_of(v).dims;
  shape out = xs;
  for (std::int32_t d = 0; d < xs.rank; ++d) out.dims[static_cast<std::size_t>(d)] = window.extent[static_cast<std::size_t>(d)];
  const std::int32_t first = s.make_known(result, out, s.known_of(v).type);
  for (std::int64_t k = 0; first >= 0 && k < out.elements(); ++k) {
    std::int64_t rest = k, source = 0, stride = 1;
    for (std::int32_t d = out.rank - 1; d >= 0; --d) {
      const auto a = static_cast<std::size_t>(d);
      source += (window.begin[a] + rest % out[d] * window.stride[a]) * stride;
      rest /= out[d];
      stride *= xs[d];
    }
    s.known_data[static_cast<std::size_t>(first + k)] = s.known_at(v, source);
  }
}

// Squeeze (the unit dims named by axes; none named: every unit dim) and Unsqueeze (a unit dim at each of
// axes, counted in the result's rank): axes an input from opset 13, an attribute before.
template <class S>
constexpr void import_squeeze(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool squeeze = s.current == op_type::Squeeze;
  const bool from_input = s.f.opset() >= 13;
  if (!expect_inputs(s, o, 1, from_input ? 2 : 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const int_list axes = read_ints(s, n, o, from_input, 1, "axes", attribute::axes);
  if (s.failed()) return;
  shape target{};
  if (squeeze) {
    const std::int64_t named = axis_bits(s, axes, xs.rank);
    if (named < 0) return;
    for (std::int32_t d = 0; d < xs.rank; ++d) {
      const bool named_here = (named >> d & 1) != 0;
      if (named_here && xs[d] != 1) return s.axis_error(d, xs.rank);
      if (axes.count > 0 ? !named_here : xs[d] != 1) target.dims[static_cast<std::size_t>(target.rank++)] = xs[d];
    }
  } else {
    if (!axes.present) return from_input ? s.operand_error(1) : s.attribute_error(attribute::axes, -1);
    const std::int32_t rank = xs.rank + axes.count;
    if (rank > static_cast<std::int32_t>(max_rank)) return s.fail(onnx_error::rank_too_high, {.rank_actual = rank});
    const std::int64_t added = axis_bits(s, axes, rank);
    if (added < 0) return;
    target.rank = rank;
    for (std::int32_t d = 0, from = 0; d < rank; ++d) target.dims[static_cast<std::size_t>(d)] = (added >> d & 1) != 0 ? 1 : xs[from++];
  }
  if (s.is_known(o.id[0])) return known_reshaped(s, result, o.id[0], target);
  define_reshaped(s, result, as_onnx(s, o.id[0], 0), target);
}

// Identity: a reshape to the value's own shape (a view). Identity of an initializer or a Constant node is that
// constant under another name (torch.onnx.export writes one for each parameter equal to an earlier one, a
// zero bias of a second conv): the ops that read weights and biases read it as they read the original.
template <class S>
constexpr void import_identity(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1)) return;
  if (o.id[0] >= 0 && s.is_constant(o.id[0]) && !s.is_known(o.id[0])) {
    s.at(result).kind = s.at(o.id[0]).kind;
    s.at(result).proto = s.at(o.id[0]).proto;
    return;
  }
  const shape xs = onnx_shape(s, o.id[0]);
  if (s.failed()) return;
  if (s.is_known(o.id[0])) return known_reshaped(s, result, o.id[0], xs);
  define_reshaped(s, result, as_onnx(s, o.id[0], 0), xs);
}

// Slice: starts and ends (and axes, steps: optional) constant inputs from opset 10, attributes before (no
// steps). As ONNX says: a negative start or end counts from the end; then start is clamped to [0, dim]
// (stepping backwards: [0, dim - 1]) and end to [0, dim] ([-1, dim - 1]); an empty result is refused.
template <class S>
constexpr void import_slice(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool from_input = s.f.opset() >= 10;
  if (!expect_inputs(s, o, from_input ? 3 : 1, from_input ? 5 : 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const int_list starts = read_ints(s, n, o, from_input, 1, "starts", attribute::starts);
  const int_list ends = read_ints(s, n, o, from_input, 2, "ends", attribute::ends);
  int_list axes = read_ints(s, n, o, from_input, 3, "axes", attribute::axes);
  const int_list steps = read_ints(s, n, o, from_input, 4, "steps", attribute::steps);
  if (s.failed()) return;
  if (!starts.present || ends.count != starts.count) return from_input ? s.operand_error(2) : s.attribute_error(attribute::ends, ends.count);
  if (!axes.present) {
    axes.count = starts.count;
    for (std::int32_t k = 0; k < starts.count; ++k) axes.values[static_cast<std::size_t>(k)] = k;
  }
  if (axes.count != starts.count) return from_input ? s.operand_error(3) : s.attribute_error(attribute::axes, axes.count);
  if (steps.present && steps.count != starts.count) return s.operand_error(4);
  if (axis_bits(s, axes, xs.rank) < 0) return;
  slice_fields window = slice_fields::whole(xs);
  for (std::int32_t k = 0; k < starts.count; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const std::int64_t axis = axes.values[i] < 0 ? axes.values[i] + xs.rank : axes.values[i];
    const std::int64_t dim = xs[static_cast<std::int32_t>(axis)], step = steps.present ? steps.values[i] : 1;
    if (step == 0 || step < -0x7fffffff || step > 0x7fffffff) return s.operand_value_error(4, k, step);
    const auto clamp = [](std::int64_t v, std::int64_t low, std::int64_t high) { return v < low ? low : v > high ? high : v; };
    // int64's extremes mean "to the end": compare before adding dim, which cannot then overflow.
    const auto from_end = [&](std::int64_t v) { return v < 0 ? (v < -dim ? -dim - 1 : v + dim) : v; };
    const std::int64_t start = step > 0 ? clamp(from_end(starts.values[i]), 0, dim) : clamp(from_end(starts.values[i]), 0, dim - 1);
    const std::int64_t end = step > 0 ? clamp(from_end(ends.values[i]), 0, dim) : clamp(from_end(ends.values[i]), -1, dim - 1);
    const std::int64_t span = step > 0 ? end - start : start - end, stride = step > 0 ? step : -step;
    const auto a = static_cast<std::size_t>(axis);
    window.begin[a] = static_cast<std::int32_t>(start);
    window.stride[a] = static_cast<std::int32_t>(step);
    window.extent[a] = span > 0 ? static_cast<std::int32_t>((span + stride - 1) / stride) : 0;  // 0: refused by infer
  }
  if (s.is_known(o.id[0])) return known_sliced(s, result, o.id[0], window);
  op_attributes attrs{};
  attrs.slice = window;
  define(s, result, s.add_node(s.current_kind, attrs, {as_onnx(s, o.id[0], 0)}, s.label_of(result)), false);
}

// Split along `axis` (default 0) into the node's outputs: sizes from the split input (opset 13 on) or
// attribute (before); else num_outputs parts (opset 18: ceil(dim / num_outputs) each, the last the rest);
// else equal parts. A slice node per output.
template <class S>
constexpr void import_split(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool from_input = s.f.opset() >= 13;
  if (!expect_inputs(s, o, 1, from_input ? 2 : 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  std::int64_t axis = int_attribute(s, n, "axis", 0);
  const int_list sizes = read_ints(s, n, o, from_input, 1, "split", attribute::split);
  const std::int64_t parts = n.output_count;
  const attribute_view num_outputs = s.f.attribute(n, "num_outputs");
  const std::int64_t asked = s.f.int_attribute(num_outputs, parts);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < 0) axis += xs.rank;
  if (axis < 0 || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  const std::int64_t dim = xs[static_cast<std::int32_t>(axis)];
  if (sizes.present && sizes.count != parts) return from_input ? s.operand_error(1) : s.attribute_error(attribute::split, sizes.count);
  if (num_outputs.present() && asked != parts) return s.attribute_error(attribute::num_outputs, asked);
  if (!sizes.present && !num_outputs.present() && dim % parts != 0) return s.attribute_error(attribute::split, -1);
  const std::int64_t part = (dim + parts - 1) / parts;  // num_outputs and equal parts (then exact)
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  slice_fields window = slice_fields::whole(xs);
  std::int64_t at = 0;
  for (std::int64_t k = 0; k < parts && !s.failed(); ++k) {
    const std::int64_t extent = sizes.present ? sizes.values[static_cast<std::size_t>(k)] : k + 1 < parts ? part : dim - at;
    if (extent < 1 || extent > dim - at) return s.attribute_error(attribute::split, extent);
    window.begin[static_cast<std::size_t>(axis)] = static_cast<std::int32_t>(at);
    window.extent[static_cast<std::size_t>(axis)] = static_cast<std::int32_t>(extent);
    at += extent;
    op_attributes attrs{};
    attrs.slice = window;
    const auto v = static_cast<std::int32_t>(result + k);
    define(s, v, s.add_node(s.current_kind, attrs, {x}, s.label_of(v)), false);
  }
  if (!s.failed() && at != dim) s.attribute_error(attribute::split, at);
}

// DepthToSpace (mode DCR or CRD) and SpaceToDepth on [N, C, H, W], blocksize b: ONNX's definitions, a
// transpose between reshapes:
//   DepthToSpace DCR [N, b, b, C/b^2, H, W] perm (0, 3, 4, 1, 5, 2), CRD [N, C/b^2, b, b, H, W] perm
//   (0, 1, 4, 2, 5, 3), then [N, C/b^2, H*b, W*b]; SpaceToDepth [N, C, H/b, b, W/b, b] perm (0, 3, 5, 1, 2, 4),
//   then [N, C*b^2, H/b, W/b].
template <class S>
constexpr void import_block_rearrange(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool to_space = s.current == op_type::DepthToSpace;
  if (!expect_inputs(s, o, 1, 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t b = int_attribute(s, n, "blocksize", 0);
  const std::string_view mode = s.f.string_attribute(s.f.attribute(n, "mode"), "DCR");
  if (s.failed() || s.take_reader_error()) return;
  if (xs.rank != 4) return s.rank_error(0, xs);
  if (b < 1 || b > max_window_value) return s.attribute_error(attribute::blocksize, b);
  if (to_space && mode != "DCR" && mode != "CRD") return s.string_attribute_error(n, "mode", attribute::mode);
  const auto k = static_cast<std::int32_t>(b);
  const std::int32_t c = xs[1], h = xs[2], w = xs[3];
  // Once the block divides the input, every extent below is at most the input's element count: no overflow.
  if (to_space ? c % (b * b) != 0 : h % k != 0 || w % k != 0) return s.attribute_error(attribute::blocksize, b);
  const bool dcr = mode == "DCR";
  const shape grouped = !to_space ? make_shape(xs[0], c, h / k, k, w / k, k)
                        : dcr     ? make_shape(xs[0], k, k, c / (k * k), h, w)
                                  : make_shape(xs[0], c / (k * k), k, k, h, w);
  const std::array<std::int32_t, 6> perm = !to_space ? std::array<std::int32_t, 6>{0, 3, 5, 1, 2, 4}
                                           : dcr     ? std::array<std::int32_t, 6>{0, 3, 4, 1, 5, 2}
                                                     : std::array<std::int32_t, 6>{0, 1, 4, 2, 5, 3};
  const shape out = to_space ? make_shape(xs[0], c / (k * k), h * k, w * k) : make_shape(xs[0], c * k * k, h / k, w / k);
  const name label = s.label_of(result);
  const std::int32_t moved = s.transpose(s.reshape(as_onnx(s, o.id[0], 0), grouped, label), perm, label);
  define_reshaped(s, result, moved, out);
}

}  // namespace ctnn::onnx::detail
