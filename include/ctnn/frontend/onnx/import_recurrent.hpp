#pragma once
// ONNX LSTM, GRU and RNN (float32; import_table.hpp's rows): one lstm/gru/rnn node (ops/recurrent.hpp) whose
// packed result holds Y, then the final hidden state and the final cell state, and a slice per output in use
// reading its part (Y, first, is a view of it; an omitted output adds nothing, and without Y the node writes
// only the final states). sequence_lens (absent, a constant or computed) runs each batch row its length;
// activation_alpha/activation_beta and activations other than Sigmoid, Tanh and Relu are refused.
#include <array>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/import_known.hpp>
#include <ctnn/frontend/onnx/import_layouts.hpp>

namespace ctnn::onnx::detail {

// ONNX's activation name as the kernel's function; none: not one ctnn runs.
constexpr activation recurrent_function(std::string_view name) {
  return name == "Sigmoid" ? activation::sigmoid : name == "Tanh" ? activation::tanh : name == "Relu" ? activation::relu : activation::none;
}

// sequence_lens (operand 4), int32 [batch], as the node's operand: -1 when absent or a constant of the full
// length for every batch row (each row runs the whole sequence, no operand to read), else a cast of it to
// float32 (the kernel reads every operand as float; exact up to 2^24; a constant's cast folds at compile time).
// A constant has at most max_known_elements rows (a fold's operand).
template <class S>
constexpr std::int32_t sequence_lengths(S& s, std::int32_t v, std::int32_t batch, std::int32_t seq) {
  if (v < 0) return -1;
  const dtype type = element_type(s, v);
  if (s.failed()) return -1;
  if (type != dtype::i32)
    return type == dtype::i64 ? s.operand_type_error(4, data_type::int64) : s.operand_type_error(4, data_type::float32), -1;
  if (onnx_shape(s, v) != make_shape(batch)) return s.failed() ? -1 : (s.operand_error(4), -1);
  if (s.is_constant(v) || s.is_known(v)) {
    // Its values (a constant becomes a known value, whose IR tensor as_onnx makes below).
    known_operand values{};
    if (!foldable(s, v)) return s.failed() ? -1 : (s.operand_error(4), -1);
    if (!read_known(s, v, 4, values)) return -1;
    bool full = true;
    for (std::int64_t k = 0; k < batch; ++k) full = full && values.at(k) == seq;
    if (full) return -1;
    if (!s.is_known(v) && !define_known(s, v, values)) return -1;
  }
  const std::int32_t lengths = as_onnx(s, v, 4);
  if (lengths < 0 || s.failed()) return -1;
  op_attributes c{};
  c.out_type = dtype::f32;
  return s.add_node(op_kind::cast, c, {lengths}, s.label_of(v));
}

// The activations attribute (strings), `count` of them, into f.functions; absent: the cell's defaults.
template <class S>
constexpr bool read_recurrent_functions(S& s, const node_view& n, std::int32_t per_direction, recurrent_fields& f) {
  constexpr activation defaults[3][3] = {{activation::sigmoid, activation::tanh, activation::tanh},
                                         {activation::sigmoid, activation::tanh, activation::none},
                                         {activation::tanh, activation::none, activation::none}};
  const std::int32_t cell = per_direction == 3 ? 0 : per_direction == 2 ? 1 : 2;
  const std::int32_t count = per_direction * f.directions();
  for (std::int32_t k = 0; k < count; ++k) f.functions[static_cast<std::size_t>(k)] = defaults[cell][k % per_direction];
  if (s.f.attribute(n, "activation_alpha").present()) return s.attribute_error(attribute::activation_alpha, -1), false;
  if (s.f.attribute(n, "activation_beta").present()) return s.attribute_error(attribute::activation_beta, -1), false;
  const attribute_view a = s.f.attribute(n, "activations");
  if (s.take_reader_error()) return false;
  if (!a.present()) return true;
  if (!s.f.expect_type(a, attribute_type::strings)) return !s.take_reader_error() && (s.attribute_error(attribute::activations, -1), false);
  std::int32_t k = 0;
  protobuf::field fd{};
  for (std::uint32_t at_ = a.proto.at; s.f.reader().next(a.proto, at_, fd);) {
    if (fd.number != schema::attribute::strings) continue;
    if (k >= count) return s.attribute_error(attribute::activations, k + 1), false;
    const activation fn = recurrent_function(s.f.reader().view(fd.bytes));
    if (fn == activation::none) return s.attribute_error(attribute::activations, fd.bytes), false;
    f.functions[static_cast<std::size_t>(k++)] = fn;
  }
  if (s.take_reader_error()) return false;
  if (k != count) return s.attribute_error(attribute::activations, k), false;
  return true;
}

template <class S>
constexpr void import_recurrent(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const std::int32_t per_direction = s.current == op_type::LSTM ? 3 : s.current == op_type::GRU ? 2 : 1;
  const bool lstm = per_direction == 3;
  // X, W, R, B, sequence_lens, initial_h, then (LSTM) initial_c and P.
  if (!expect_inputs(s, o, 3, lstm ? 8 : 6) || !expect_activation(s, o, 0)) return;
  const auto operand = [&](std::uint32_t k) { return k < o.count ? o.id[k] : -1; };
  for (std::uint32_t k = 0; k < o.count; ++k)
    if (k != 4 && o.id[k] >= 0 && element_type(s, o.id[k]) != dtype::f32) return s.operand_error(k);
  recurrent_fields f{};
  const std::int64_t hidden = int_attribute(s, n, "hidden_size", 0);
  const std::string_view direction = s.f.string_attribute(s.f.attribute(n, "direction"), "forward");
  const std::int64_t layout = int_attribute(s, n, "layout", 0);
  const attribute_view clip = s.f.attribute(n, "clip");
  const float threshold = s.f.float_attribute(clip, 0.0f);
  const std::int64_t input_forget = int_attribute(s, n, "input_forget", 0);
  const std::int64_t linear_before_reset = int_attribute(s, n, "linear_before_reset", 0);
  if (s.take_reader_error()) return;
  if (hidden < 1 || hidden > max_window_value) return s.attribute_error(attribute::hidden_size, hidden);
  if (direction == "forward") f.direction = recurrent_direction::forward;
  else if (direction == "reverse") f.direction = recurrent_direction::reverse;
  else if (direction == "bidirectional") f.direction = recurrent_direction::bidirectional;
  else return s.string_attribute_error(n, "direction", attribute::direction);
  if (layout != 0 && layout != 1) return s.attribute_error(attribute::layout, layout);
  // The rejected value as an integer where it has one (a NaN or a huge threshold: 0, not a conversion out of range).
  if (clip.present() && !(threshold > 0.0f))
    return s.attribute_error(attribute::clip, threshold > -1e18f ? static_cast<std::int64_t>(threshold) : 0);
  if (input_forget != 0 && input_forget != 1) return s.attribute_error(attribute::input_forget, input_forget);
  if (linear_before_reset != 0 && linear_before_reset != 1)
    return s.attribute_error(attribute::linear_before_reset, linear_before_reset);
  f.hidden = static_cast<std::int32_t>(hidden);
  f.batch_major = static_cast<std::int32_t>(layout);
  f.clipped = clip.present() ? 1 : 0;
  f.clip_bits = std::bit_cast<std::uint32_t>(threshold);
  f.input_forget = lstm ? static_cast<std::int32_t>(input_forget) : 0;
  f.linear_before_reset = per_direction == 2 ? static_cast<std::int32_t>(linear_before_reset) : 0;
  if (!read_recurrent_functions(s, n, per_direction, f)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  if (s.failed()) return;
  if (xs.rank != 3) return s.rank_error(0, xs);
  const std::int32_t seq = layout != 0 ? xs[1] : xs[0], batch = layout != 0 ? xs[0] : xs[1];
  // The outputs in use: Y, Y_h, Y_c (omitted ones have empty names).
  bool used[3] = {};
  for (std::uint32_t k = 0; k < n.output_count && k < 3; ++k) used[k] = s.f.output_name(n, k).length > 0;
  if (s.take_reader_error()) return;
  if (n.output_count > (lstm ? 3u : 2u))
    return s.fail(onnx_error::output_count, {.operator_code = static_cast<std::int64_t>(s.current), .count_actual = n.output_count});
  if (!used[0] && !used[1] && !used[2]) return;
  f.writes_sequence = used[0] ? 1 : 0;
  const auto as_ir = [&](std::uint32_t k) -> std::int32_t { return operand(k) >= 0 ? as_onnx(s, operand(k), k) : -1; };
  op_attributes a{};
  a.set(f);
  // W [dirs, gates * hidden, input] and R [dirs, gates * hidden, hidden] as the kernels read them, k-major
  // (kernel/reference/recurrent.hpp): constants re-laid out at compile time in panels of the kernel's column
  // block ([dirs * gates * hidden / panel, input or hidden, panel]: rows of one panel are contiguous), others
  // transposed ([dirs, input or hidden, gates * hidden], one panel per direction).
  const std::int32_t gates = per_direction == 3 ? 4 : per_direction == 2 ? 3 : 1, dirs = f.directions();
  const bool both_constant = o.count > 2 && s.is_constant(o.id[1]) && s.is_constant(o.id[2]);
  f.panel = both_constant ? kernel::reference::recurrent::panel_width(f.hidden) : 0;
  const std::int32_t panel = f.panel > 0 ? f.panel : gates * f.hidden;
  // std::int32_t is long on Arm's EABI: the lambdas name their return type.
  const auto k_major = [&](std::uint32_t k, std::int32_t depth) -> std::int32_t {
    const shape stored = onnx_shape(s, o.id[k]);
    if (s.failed()) return -1;
    if (stored != make_shape(dirs, gates * f.hidden, depth)) return s.operand_error(k), -1;
    if (s.is_constant(o.id[k]))
      return s.gathered(o.id[k], k, make_shape(dirs * (gates * f.hidden / panel), depth, panel),
                        {std::int64_t{panel} * depth, 1, depth, 0}, 1.0f);
    const std::int32_t id = as_onnx(s, o.id[k], k);
    return id < 0 ? -1 : s.transpose(id, std::array<std::int32_t, 3>{0, 2, 1}, s.label_of(o.id[k]));
  };
  const std::int32_t x = as_ir(0), w = k_major(1, xs[2]), r = k_major(2, f.hidden), b = as_ir(3), h0 = as_ir(5);
  if (s.failed()) return;
  const std::int32_t lengths = sequence_lengths(s, operand(4), batch, seq);
  if (s.failed()) return;
  a.set(f);
  const name label = numbered(name_of(s.current), static_cast<std::size_t>(s.node_index));
  const std::int32_t packed = lstm ? s.add_node(s.current_kind, a, {x, w, r, b, h0, as_ir(6), as_ir(7), lengths}, label)
                                   : s.add_node(s.current_kind, a, {x, w, r, b, h0, lengths}, label);
  if (packed < 0 || s.failed()) return;
  const kernel::reference::recurrent::extents e(s.m.tensor_at(x).dims, f);
  const kernel::reference::recurrent::packing pack(lstm                       ? kernel::reference::recurrent::cell::lstm
                                                   : s.current == op_type::GRU ? kernel::reference::recurrent::cell::gru
                                                                               : kernel::reference::recurrent::cell::rnn,
                                                   e, used[0]);
  const shape state = layout != 0 ? make_shape(batch, dirs, f.hidden) : make_shape(dirs, batch, f.hidden);
  const std::int64_t begins[3] = {0, pack.final_hidden, pack.final_cell};
  const shape shapes[3] = {layout != 0 ? make_shape(batch, seq, dirs, f.hidden) : make_shape(seq, dirs, batch, f.hidden), state,
                           state};
  for (std::int32_t k = 0; k < 3 && !s.failed(); ++k) {
    if (!used[k]) continue;
    op_attributes window{};
    window.slice.begin[0] = static_cast<std::int32_t>(begins[k]);
    window.slice.stride[0] = 1;
    window.slice.extent[0] = static_cast<std::int32_t>(shapes[k].elements());
    window.target = shapes[k];
    const auto v = static_cast<std::int32_t>(result + k);
    define(s, v, s.add_node(op_kind::slice, window, {packed}, s.label_of(v)), false);
  }
}

}  // namespace ctnn::onnx::detail
