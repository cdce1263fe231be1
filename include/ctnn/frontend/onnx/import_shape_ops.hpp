#pragma once
// The ONNX importer's ops that move or pad data (import.hpp): Reshape, Flatten, Concat, Pad, Transpose, and
// BatchNormalization.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/onnx/import_elementwise.hpp>

namespace ctnn::onnx::detail {

template <class Module, std::size_t MaxValues, std::size_t MaxRelayouts>
struct shape_importer : elementwise_importer<Module, MaxValues, MaxRelayouts> {
  using typename elementwise_importer<Module, MaxValues, MaxRelayouts>::operands;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::f;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::m;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::values;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::node_index;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::failed;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::fail;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::take_reader_error;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::attribute_error;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::string_attribute_error;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::operand_error;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::operand_value_error;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::rank_error;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::at;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::label_of;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::is_constant;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::add_node;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::reshape;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::gathered;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::constant_shape;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::constant_int;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::onnx_shape;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::as_onnx;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::as_nhwc;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::as_nhwc_1d;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::define;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::prefers_nhwc;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::int_attribute;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::float_attribute;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::expect_inputs;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::expect_constant;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::expect_activation;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::constant_scalar;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::element_type;
  using elementwise_importer<Module, MaxValues, MaxRelayouts>::fits;

  constexpr void reshape_node(const node_view& n, const operands& o, std::int32_t result) {
    const bool from_input = f.opset() >= 5;
    if (!expect_inputs(o, from_input ? 2 : 1, from_input ? 2 : 1)) return;
    shape target{};
    std::int64_t count = 0;
    if (from_input) {
      if (!expect_constant(o, 1)) return;
      constant_int(o.id[1], 1, 0, count);
      if (failed()) return;
      if (constant_shape(o.id[1]).rank != 1) return operand_error(1);
      if (count > static_cast<std::int64_t>(max_rank))
        return fail(onnx_error::rank_too_high, {.byte_offset = at(o.id[1]).name.at, .rank_actual = count});
      for (std::uint32_t k = 0; k < count && !failed(); ++k) {
        const std::int64_t extent = constant_int(o.id[1], 1, k, count);
        if (extent < -1 || extent > 0x7fffffff) return operand_value_error(1, k, extent);
        target.dims[k] = static_cast<std::int32_t>(extent);
      }
    } else {
      const attribute_view a = f.attribute(n, "shape");
      count = f.ints_count(a);
      if (count > static_cast<std::int64_t>(max_rank))
        return fail(onnx_error::rank_too_high, {.byte_offset = 0, .rank_actual = count});
      for (std::uint32_t k = 0; k < count; ++k) {
        const std::int64_t extent = f.ints_at(a, k);
        if (extent < -1 || extent > 0x7fffffff) return attribute_error(attribute::shape, extent);
        target.dims[k] = static_cast<std::int32_t>(extent);
      }
    }
    if (failed() || take_reader_error()) return;
    target.rank = static_cast<std::int32_t>(count);
    bool zero = false;
    for (std::int32_t d = 0; d < target.rank; ++d) zero = zero || target[d] == 0;
    if (zero && int_attribute(n, "allowzero", 0) != 0) return attribute_error(attribute::allowzero, 1);
    if (target.rank == 0) target = make_shape(1);  // a scalar: one element ("rank 0" is "keep" in the IR)
    const std::int32_t x = as_onnx(o.id[0], 0);
    define(result, reshape(x, target, label_of(result)), false);
  }

  constexpr void flatten(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 1)) return;
    const shape s = onnx_shape(o.id[0]);
    std::int64_t axis = int_attribute(n, "axis", 1);
    if (failed() || take_reader_error()) return;
    if (axis < 0) axis += s.rank;
    if (axis < 0 || axis > s.rank)
      return fail(error_code::invalid_axis, node_index, op_kind::reshape, {.axis = axis, .rank_actual = s.rank});
    std::int64_t outer = 1;
    for (std::int32_t d = 0; d < axis; ++d) outer *= s[d];
    const std::int32_t x = as_onnx(o.id[0], 0);
    define(result, reshape(x, make_shape(outer, s.elements() / outer), label_of(result)), false);
  }

  constexpr void concat(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, max_node_inputs)) return;
    const shape s = onnx_shape(o.id[0]);
    const attribute_view axis_attribute = f.attribute(n, "axis");
    std::int64_t axis = f.int_attribute(axis_attribute, 1);
    if (failed() || take_reader_error()) return;
    if (!axis_attribute.present() && f.opset() >= 4) return attribute_error(attribute::axis, -1);
    if (axis < 0) axis += s.rank;
    if (axis < 0 || axis >= s.rank)
      return fail(error_code::invalid_axis, node_index, op_kind::concat, {.axis = axis, .rank_actual = s.rank});
    bool nhwc = s.rank == 4;
    bool any_nhwc = false;
    for (std::uint32_t k = 0; k < o.count; ++k) {
      if (o.id[k] < 0) return operand_error(k);
      any_nhwc = any_nhwc || prefers_nhwc(o.id[k]);
    }
    nhwc = nhwc && any_nhwc;
    std::array<std::int32_t, max_node_inputs> inputs{};
    for (std::uint32_t k = 0; k < o.count; ++k) inputs[k] = nhwc ? as_nhwc(o.id[k], k) : as_onnx(o.id[k], k);
    if (failed()) return;
    op_attributes a{};
    a.axis = nhwc ? nhwc_of_nchw[static_cast<std::size_t>(axis)] : static_cast<std::int32_t>(axis);
    const std::int32_t out = add_node(op_kind::concat, a, {inputs[0]}, label_of(result));
    if (out < 0) return;
    // The other operands, then the shape again (add_node inferred it from the first alone).
    node& c = m.node_at(m.tensor_at(out).producer);
    for (std::uint32_t k = 1; k < o.count; ++k) c.inputs[k] = inputs[k];
    c.input_count = static_cast<std::int32_t>(o.count);
    const shape dims = shape_rules::infer_node(m, m.tensor_at(out).producer);
    if (failed()) return void(m.error.node = node_index);
    m.tensor_at(out).dims = dims;
    define(result, out, nhwc);
  }

  constexpr void pad(const node_view& n, const operands& o, std::int32_t result) {
    const bool from_input = f.opset() >= 11;
    if (!expect_inputs(o, from_input ? 2 : 1, from_input ? 4 : 1) || !expect_activation(o, 0)) return;
    const std::string_view mode = f.string_attribute(f.attribute(n, "mode"), "constant");
    if (take_reader_error()) return;
    const pad_mode fill_mode = mode == "reflect" ? pad_mode::reflect
                               : mode == "edge"  ? pad_mode::edge
                               : mode == "wrap"  ? pad_mode::wrap
                                                 : pad_mode::constant;
    if (mode != "constant" && fill_mode == pad_mode::constant) return string_attribute_error(n, "mode", attribute::mode);
    const shape s = onnx_shape(o.id[0]);
    std::array<std::int64_t, 2 * max_rank> pads{};
    float fill = 0.0f;
    std::int64_t count = 0;
    if (from_input) {
      if (!expect_constant(o, 1)) return;
      constant_int(o.id[1], 1, 0, count);
      if (failed()) return;
      // axes (opset 18): pads name these dims only ([begins..., ends...] in axes' order).
      std::array<std::int32_t, max_rank> axes{};
      std::int64_t axis_count = s.rank;
      for (std::int32_t d = 0; d < s.rank; ++d) axes[static_cast<std::size_t>(d)] = d;
      if (o.count > 3 && o.id[3] >= 0) {
        if (!expect_constant(o, 3)) return;
        constant_int(o.id[3], 3, 0, axis_count);
        if (failed()) return;
        if (axis_count > s.rank) return operand_error(3);
        for (std::uint32_t k = 0; k < axis_count; ++k) {
          std::int64_t axis = constant_int(o.id[3], 3, k, axis_count);
          if (axis < 0) axis += s.rank;
          if (axis < 0 || axis >= s.rank)
            return fail(error_code::invalid_axis, node_index, op_kind::pad, {.axis = axis, .rank_actual = s.rank});
          axes[k] = static_cast<std::int32_t>(axis);
        }
      }
      if (count != 2 * axis_count) return operand_error(1);
      for (std::uint32_t k = 0; k < axis_count; ++k) {
        pads[static_cast<std::size_t>(axes[k])] = constant_int(o.id[1], 1, k, count);
        pads[static_cast<std::size_t>(axes[k] + s.rank)] = constant_int(o.id[1], 1, static_cast<std::uint32_t>(k + axis_count), count);
      }
      count = 2 * s.rank;
      if (o.count > 2 && o.id[2] >= 0) fill = expect_constant(o, 2) ? constant_scalar(o.id[2], 2) : 0.0f;
    } else {
      const attribute_view a = f.attribute(n, f.opset() >= 2 ? "pads" : "paddings");
      count = f.ints_count(a);
      if (take_reader_error()) return;
      if (count != 2 * s.rank) return attribute_error(attribute::pads, count);
      for (std::uint32_t k = 0; k < count; ++k) pads[k] = f.ints_at(a, k);
      fill = float_attribute(n, "value", 0.0f);
    }
    if (failed() || take_reader_error()) return;
    for (std::int32_t k = 0; k < 2 * s.rank; ++k)
      if (pads[static_cast<std::size_t>(k)] < 0 || pads[static_cast<std::size_t>(k)] > max_window_value)
        return attribute_error(attribute::pads, pads[static_cast<std::size_t>(k)]);
    // An integer tensor's fill value must be one of its values (the kernel converts it to the element type).
    if (const dtype type = element_type(o.id[0]); type != dtype::f32 && !fits(fill, type)) return operand_error(2);
    const bool nhwc = prefers_nhwc(o.id[0]);
    op_attributes a{};
    a.pad_value = fill;
    a.fill_mode = fill_mode;
    for (std::int32_t d = 0; d < s.rank; ++d) {
      // IR dim d holds ONNX dim d, or (NHWC) ONNX dim nchw_of_nhwc[d]; ONNX pads are [begins..., ends...].
      const std::int32_t source = nhwc ? nchw_of_nhwc[static_cast<std::size_t>(d)] : d;
      a.pads[static_cast<std::size_t>(2 * d)] = static_cast<std::int32_t>(pads[static_cast<std::size_t>(source)]);
      a.pads[static_cast<std::size_t>(2 * d + 1)] = static_cast<std::int32_t>(pads[static_cast<std::size_t>(source + s.rank)]);
    }
    const std::int32_t x = nhwc ? as_nhwc(o.id[0], 0) : as_onnx(o.id[0], 0);
    define(result, add_node(op_kind::pad, a, {x}, label_of(result)), nhwc);
  }

  // Transpose (perm: a permutation of the dims; absent: reversed). An input held in NHWC alone is
  // transposed from there, the two permutations composed.
  constexpr void transpose_node(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 1)) return;
    const shape s = onnx_shape(o.id[0]);
    const attribute_view given = f.attribute(n, "perm");
    if (failed() || take_reader_error()) return;
    std::array<std::int32_t, max_rank> perm{};
    const std::uint32_t count = given.present() ? f.ints_count(given) : static_cast<std::uint32_t>(s.rank);
    if (take_reader_error()) return;
    if (count != static_cast<std::uint32_t>(s.rank)) return attribute_error(attribute::perm, count);
    for (std::int32_t d = 0; d < s.rank; ++d) {
      const std::int64_t from = given.present() ? f.ints_at(given, static_cast<std::uint32_t>(d)) : s.rank - 1 - d;
      if (from < 0 || from >= s.rank) return attribute_error(attribute::perm, from);
      perm[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(from);
    }
    if (take_reader_error()) return;
    const value& x = at(o.id[0]);
    // A constant is folded; a 1-D value held as [N, 1, L, C] is read in its ONNX layout.
    std::int32_t source = is_constant(o.id[0]) || x.one_d ? as_onnx(o.id[0], 0) : x.onnx_layout;
    if (source < 0 && !failed()) {  // NHWC only: ONNX dim k is NHWC dim nhwc_of_nchw[k]
      source = x.nhwc;
      for (std::int32_t d = 0; d < s.rank; ++d)
        perm[static_cast<std::size_t>(d)] = nhwc_of_nchw[static_cast<std::size_t>(perm[static_cast<std::size_t>(d)])];
    }
    op_attributes a{};
    a.perm = perm;
    define(result, add_node(op_kind::transpose, a, {source}, label_of(result)), false);
  }

  constexpr void batch_norm(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 5, 5) || !expect_activation(o, 0)) return;
    for (std::uint32_t k = 1; k < 5; ++k)
      if (!expect_constant(o, k)) return;
    if (int_attribute(n, "training_mode", 0) != 0) return attribute_error(attribute::training_mode, 1);
    if (f.opset() < 9 && int_attribute(n, "spatial", 1) != 1) return attribute_error(attribute::spatial, 0);
    const float epsilon = float_attribute(n, "epsilon", 1e-5f);
    const shape s = onnx_shape(o.id[0]);
    if (failed() || take_reader_error()) return;
    if (s.rank < 2 || s.rank > 4) return rank_error(0, s);
    // The channels (ONNX axis 1) are the last axis of an NHWC tensor (a 1-D [N, C, L] one: [N, 1, L, C]) and
    // of a [N, C] one.
    const std::int32_t x = s.rank == 4 ? as_nhwc(o.id[0], 0) : s.rank == 3 ? as_nhwc_1d(o.id[0], 0) : as_onnx(o.id[0], 0);
    std::array<std::int32_t, 4> parameters{};
    for (std::uint32_t k = 1; k < 5; ++k) {
      if (constant_shape(o.id[k]).elements() != s[1]) return operand_error(k);
      parameters[k - 1] = gathered(o.id[k], k, make_shape(s[1]), {1, 0, 0, 0}, 1.0f);
    }
    op_attributes a{};
    a.epsilon = epsilon;
    define(result, add_node(op_kind::batch_norm, a, {x, parameters[0], parameters[1], parameters[2], parameters[3]}, label_of(result)),
           s.rank >= 3, s.rank == 3);
  }
};

}  // namespace ctnn::onnx::detail
