#pragma once
// The printers' pieces (print/printer.hpp) that know no op kind: a window, a list of numbers, pads (the
// op descriptors and print/op_fields.hpp print attributes with them), an operand's run-time location, a
// diagnostic.
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

// Where an operand lives at run time: "arena+128", "input 0", "output 0", "constant conv2d_0_0", "state+64".
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
    case storage::state:
      w.field("state+", at.offset);
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
