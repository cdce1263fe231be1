#pragma once
// The printers' longer pieces (ir/printer.hpp): an op's window and attributes, a kernel's parameters, an
// operand's run-time location, a diagnostic.
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/enum_names.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>
#include <ctnn/ir/printer_text.hpp>

namespace ctnn::detail {

inline void put_window(text_writer& w, const window& win, bool pads_resolved) {
  w.field("window ", win.kernel_h);
  w.field("x", win.kernel_w);
  w.field(" stride ", win.stride_h);
  w.field("x", win.stride_w);
  if (win.dilation_h != 1 || win.dilation_w != 1) {
    w.field(" dilation ", win.dilation_h);
    w.field("x", win.dilation_w);
  }
  w.put(" padding ");
  w.put(padding_name(win.mode));
  const bool any_pad = win.pad_top != 0 || win.pad_left != 0 || win.pad_bottom != 0 || win.pad_right != 0;
  if ((pads_resolved && (win.mode != padding::valid || any_pad)) || win.mode == padding::explicit_pads) {
    w.field(": t", win.pad_top);
    w.field(" l", win.pad_left);
    w.field(" b", win.pad_bottom);
    w.field(" r", win.pad_right);
  }
}

// "1,2,3": the first `count` numbers of an array (a transpose's perm, a concat's extents, pads).
template <std::size_t N>
void put_numbers(text_writer& w, const std::array<std::int32_t, N>& numbers, std::int32_t count) {
  for (std::int32_t i = 0; i < count; ++i) {
    if (i > 0) w.put(",");
    w.number(numbers[static_cast<std::size_t>(i)]);
  }
}

// "pads 0,0,1,1,1,1,0,0" (before/after per dim) for a pad op.
inline void put_pad_pairs(text_writer& w, const std::array<std::int32_t, 2 * max_rank>& pads, std::int32_t rank) {
  w.put("pads ");
  put_numbers(w, pads, 2 * (rank > 0 ? rank : static_cast<std::int32_t>(max_rank)));
}

// The attributes an op kind reads (after its fused activation).
inline void put_attributes(text_writer& w, const module_view& m, const node& n) {
  const op_attributes& a = n.attrs;
  const bool resolved = m.has(fact::shapes_inferred);
  switch (n.kind) {
    case op_kind::conv2d:
      w.put("  ");
      put_window(w, a.win, resolved);
      w.field(" groups ", a.groups);
      break;
    case op_kind::depthwise_conv2d:
      w.put("  ");
      put_window(w, a.win, resolved);
      w.field(" multiplier ", a.depth_multiplier);
      break;
    case op_kind::max_pool:
    case op_kind::avg_pool:
      w.put("  ");
      put_window(w, a.win, resolved);
      break;
    case op_kind::dense:
      if (a.units > 0) w.field("  units ", a.units);
      break;
    case op_kind::softmax:
    case op_kind::concat:
      w.field("  axis ", a.axis);
      break;
    case op_kind::reshape:
      if (a.target.rank > 0) {
        w.put("  target ");
        put_shape(w, a.target);
      } else {
        w.put("  copy");
      }
      break;
    case op_kind::pad:
      w.put("  ");
      put_pad_pairs(w, a.pad.before_after, m.valid_tensor(n.inputs[0]) ? m.tensor_at(n.inputs[0]).dims.rank : 0);
      if (a.pad.mode == pad_mode::constant) {
        w.real_field(" value ", static_cast<double>(a.pad.fill_value()));
      } else {
        w.put(" "), w.put(pad_mode_name(a.pad.mode));
      }
      break;
    case op_kind::batch_norm:
      w.real_field("  epsilon ", static_cast<double>(a.batch_norm.epsilon()));
      break;
    case op_kind::quantize:
    case op_kind::dequantize:
      w.put("  to ");
      w.put(name_of(a.out_type));
      break;
    case op_kind::mean:
      w.field("  axes mask ", static_cast<std::int64_t>(a.mean.reduce_axes));
      w.put(a.keep_dims ? " keep_dims" : "");
      break;
    case op_kind::clip:
      w.real_field("  min ", static_cast<double>(a.clip.min()));
      w.real_field(" max ", static_cast<double>(a.clip.max()));
      break;
    case op_kind::transpose:
      w.put("  perm ");
      put_numbers(w, a.transpose.perm, m.valid_tensor(n.inputs[0]) ? m.tensor_at(n.inputs[0]).dims.rank : 0);
      break;
    default:  // no attributes of their own (global_avg_pool, add, mul, batch_matmul, the activations)
      break;
    case op_kind::crop:
    case op_kind::paste:
      w.field("  at row ", a.patch.row);
      w.field(" column ", a.patch.column);
      break;
    case op_kind::fetch_rows:
      w.field("  keeps ", a.fetch.kept_rows);
      w.field(" rows, fetches ", a.fetch.fetched_rows);
      w.field(" from row ", a.fetch.first_row);
      break;
  }
}

// A kernel's compile-time parameters in one line: "conv2d f32 +relu [1,8,8,1] -> [1,8,8,8] window ...".
inline void put_kernel_params(text_writer& w, const kernel_params& p) {
  w.put(name_of(p.kind));
  w.put(" ");
  w.put(name_of(p.type));
  if (p.fused != activation::none) {
    w.put(" +");
    w.put(name_of(p.fused));
  }
  w.put(" ");
  put_shape(w, p.in);
  if (p.in2.rank > 0) {  // a second operand: binary ops, batch_matmul, ONNX's MatMul (its weights)
    w.put(", ");
    put_shape(w, p.in2);
  }
  w.put(" -> ");
  put_shape(w, p.out);
  if (p.out_type != p.type) {  // quantize, dequantize, ONNX's integer ops with an int32 result
    w.put(" ");
    w.put(name_of(p.out_type));
  }
  switch (p.kind) {
    case op_kind::conv2d:
    case op_kind::depthwise_conv2d:
    case op_kind::max_pool:
    case op_kind::avg_pool:
      w.put("  ");
      put_window(w, p.win, true);
      if (p.kind == op_kind::conv2d && p.groups != 1) w.field(" groups ", p.groups);
      if (p.kind == op_kind::depthwise_conv2d && p.depth_multiplier != 1) w.field(" multiplier ", p.depth_multiplier);
      break;
    case op_kind::softmax:
      w.field("  axis ", p.axis);
      break;
    case op_kind::concat:
      w.field("  axis ", p.axis);
      w.put(" extents ");
      put_numbers(w, p.concat.extents, p.concat.count);
      break;
    case op_kind::pad:
      w.put("  ");
      put_pad_pairs(w, p.pad.before_after, p.in.rank);
      if (p.pad.mode == pad_mode::constant) {
        w.real_field(" value ", static_cast<double>(p.pad.fill_value()));
      } else {
        w.put(" "), w.put(pad_mode_name(p.pad.mode));
      }
      break;
    case op_kind::batch_norm:
      w.real_field("  epsilon ", static_cast<double>(p.batch_norm.epsilon()));
      break;
    case op_kind::clip:
      w.real_field("  min ", static_cast<double>(p.clip.min()));
      w.real_field(" max ", static_cast<double>(p.clip.max()));
      break;
    case op_kind::mean:
      w.field("  axes mask ", static_cast<std::int64_t>(p.mean.reduce_axes));
      break;
    case op_kind::transpose:
      w.put("  perm ");
      put_numbers(w, p.transpose.perm, p.in.rank);
      break;
    case op_kind::crop:
    case op_kind::paste:
      w.field("  at row ", p.patch.row);
      w.field(" column ", p.patch.column);
      break;
    default:
      break;
  }
  if ((p.kind == op_kind::conv2d || p.kind == op_kind::depthwise_conv2d || p.kind == op_kind::dense) && p.has_bias != 0)
    w.put(", with bias");
}

// Where an operand lives at run time: "arena+128", "input 0", "output 0", "constant conv2d_0_0".
inline void put_location(text_writer& w, const module_view& m, const location& at) {
  switch (at.where) {
    case storage::arena:
      w.field("arena+", at.offset);
      break;
    case storage::model_input:
      w.field("input ", at.index);
      break;
    case storage::model_output:
      w.field("output ", at.index);
      break;
    case storage::constant:
      w.put("constant ");
      if (m.valid_tensor(at.index)) w.put(m.tensor_at(at.index).label.view());
      else w.number(at.index);
      break;
    case storage::none:
      w.put("none");
      break;
  }
}

// The diagnostic: "error: <code> at op 3 (add \"c\"): count_expected 8, count_actual 4, expected [..], actual [..]"
// (the details that are not 0, by name).
inline void put_diagnostic(text_writer& w, const module_view& m, const diagnostic& d) {
  w.put("error: ");
  w.put(error_code_name(d.code));
  if (d.code == error_code::pass_prerequisite_missing) {
    w.field(" at pipeline position ", d.position);
    w.put(", missing ");
    put_facts(w, static_cast<std::uint32_t>(d.missing_facts));
    return;
  }
  if (d.node >= 0) {
    w.field(" at op ", d.node);
    w.put(" (");
    w.put(name_of(d.kind));
    if (m.valid_node(d.node)) {
      w.put(" \"");
      w.put(m.node_at(d.node).label.view());
      w.put("\"");
    }
    w.put(")");
  }
  w.put(":");
  const char* separator = " ";
  for (const diagnostic_detail_field& field : diagnostic_detail_fields) {
    if (d.*field.member == 0) continue;
    w.put(separator);
    w.put(field.name);
    w.put(" ");
    w.number(d.*field.member);
    separator = ", ";
  }
  if (d.expected.rank > 0) {
    w.put(separator);
    separator = ", ";
    w.put("expected ");
    put_shape(w, d.expected);
  }
  if (d.actual.rank > 0) {
    w.put(separator);
    w.put("actual ");
    put_shape(w, d.actual);
  }
}

}  // namespace ctnn::detail
