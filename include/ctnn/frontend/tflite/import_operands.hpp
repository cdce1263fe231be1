#pragma once
// The TFLite importer's reading of an op's operands and options (import.hpp), free functions that take the
// importer state (import_state.hpp): operands that exist and are available, constant operands, fused
// activations, windows, input counts and ranks, and the requantization multipliers an int8 op derives from
// its scales; and op_import, what an op's import function reads and fills.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/import_state.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/little_endian.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::tflite::detail {

// One op being imported (op_table's row in import_plan.hpp gives its plan): what its import function reads
// and what it fills, the IR node's operands and attributes, which the driver (import_graph.hpp) adds as
// one node writing `result`.
struct op_import {
  std::int32_t op = 0;    // its index in the file (diagnostics)
  op_plan plan{};         // its builtin code, IR kind, options table and fused activation
  operator_view view{};   // its operands in the file
  std::int32_t out = -1;  // the file's output tensor
  activation fused = activation::none;
  // Filled by the import function:
  std::array<std::int32_t, max_node_inputs> inputs{};
  std::int32_t input_count = 0;
  op_attributes attrs{};
};

// Operand k of op i: a tensor index that exists and is available (a graph input, a constant or an
// earlier op's output); -1 where `optional`.
template <class S>
constexpr std::int32_t operand(S& s, const operator_view& o, std::uint32_t k, bool optional = false) {
  const std::int32_t id = s.f.index_at(o.inputs, k);
  if (s.take_reader_error()) return -1;
  if (id == -1 && optional) return -1;
  if (id < 0 || static_cast<std::uint32_t>(id) >= s.f.tensor_count()) {
    s.malformed(o.inputs.position(k), flatbuffers::expectation::tensor_index);
    return -1;
  }
  const tensor& t = s.m.tensor_at(id);
  // (a tensor computed at import, import_known.hpp, has no producer: the driver checks who reads it)
  if (t.role == tensor_role::intermediate && t.producer < 0 && !s.is_known(id)) {
    s.malformed(o.inputs.position(k), flatbuffers::expectation::produced_tensor);
    return -1;
  }
  return id;
}

// Operand k must be a constant (weights, bias, int32 shapes/pads/axes) of type `type`.
template <class S>
constexpr bool constant_operand(S& s, std::int32_t op, const op_plan& p, std::int32_t id, std::uint32_t k, dtype type) {
  if (id < 0) return true;
  const tensor& t = s.m.tensor_at(id);
  if (t.role == tensor_role::constant && t.type == type) return true;
  s.fail(frontend_error::tflite_unsupported_operand, op, p.kind,
         {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = k});
  return false;
}

// Element k of a constant int32 tensor (little-endian bytes in the file).
template <class S>
constexpr std::int32_t constant_i32(const S& s, std::int32_t id, std::int64_t k) {
  return load_le<std::int32_t>(s.m.tensor_at(id).data.bytes, static_cast<std::size_t>(4 * k));
}

template <class S>
constexpr bool activation_to_ir(S& s, std::int32_t op, const op_plan& p, activation& out) {
  switch (p.fused) {
    case activation_function::none: out = activation::none; return true;
    case activation_function::relu: out = activation::relu; return true;
    case activation_function::relu6: out = activation::relu6; return true;
    default:
      s.fail(
          frontend_error::tflite_unsupported_activation, op, p.kind,
          {.operator_code = static_cast<std::int64_t>(p.code), .rejected_value = static_cast<std::int64_t>(p.fused)});
      return false;
  }
}

// Padding, strides and dilations of a conv/pool options table into a window.
template <class S>
constexpr bool read_window(S& s, std::int32_t op, const op_plan& p, std::uint32_t padding_id, std::uint32_t stride_w_id,
                           std::uint32_t stride_h_id, std::int32_t dilation_w_id, std::int32_t dilation_h_id,
                           window& w) {
  flatbuffers::reader& r = s.f.reader();
  const auto pad = r.scalar<std::int8_t>(p.options, padding_id, 0);
  w.stride_w = r.scalar<std::int32_t>(p.options, stride_w_id, 0);
  w.stride_h = r.scalar<std::int32_t>(p.options, stride_h_id, 0);
  if (dilation_w_id >= 0)
    w.dilation_w = r.scalar<std::int32_t>(p.options, static_cast<std::uint32_t>(dilation_w_id), 1);
  if (dilation_h_id >= 0)
    w.dilation_h = r.scalar<std::int32_t>(p.options, static_cast<std::uint32_t>(dilation_h_id), 1);
  if (s.take_reader_error()) return false;
  if (pad != static_cast<std::int8_t>(padding_type::same) && pad != static_cast<std::int8_t>(padding_type::valid)) {
    s.fail(frontend_error::tflite_unsupported_padding, op, p.kind,
           {.operator_code = static_cast<std::int64_t>(p.code), .rejected_value = pad});
    return false;
  }
  w.mode = pad == static_cast<std::int8_t>(padding_type::same) ? padding::same : padding::valid;
  // Below 1 is meaningless; 2^16 and more would only overflow the shape arithmetic of later passes.
  for (const std::int32_t v : {w.stride_w, w.stride_h, w.dilation_w, w.dilation_h, w.kernel_h, w.kernel_w}) {
    if (v < 1 || v > max_window_value) {
      s.fail(frontend_error::tflite_invalid_window, op, p.kind,
             {.operator_code = static_cast<std::int64_t>(p.code), .rejected_value = v});
      return false;
    }
  }
  return true;
}

template <class S>
constexpr bool expect_inputs(S& s, std::int32_t op, const op_plan& p, const operator_view& o, std::uint32_t least,
                             std::uint32_t most) {
  if (o.inputs.length >= least && o.inputs.length <= most) return true;
  s.fail(error_code::input_count_mismatch, op, p.kind,
         {.count_expected = o.inputs.length < least ? least : most, .count_actual = o.inputs.length});
  return false;
}

template <class S>
constexpr bool expect_rank(S& s, std::int32_t op, const op_plan& p, std::int32_t id, std::int32_t rank) {
  const shape& dims = s.m.tensor_at(id).dims;
  if (dims.rank == rank) return true;
  s.fail(error_code::unsupported_rank, op, p.kind, {.rank_expected = rank, .rank_actual = dims.rank}, {}, dims);
  return false;
}

// The requantization multipliers an int8 op's kernel derives from its scales (lower_te, runtime/
// requantization.hpp) must be ones TFLite's QuantizeMultiplier accepts (shift at most 31; a shift
// below -31 is flushed to 0); LOGISTIC, TANH and SOFTMAX also derive their input radius from the shift,
// which must not be negative. Operands without a scale are lower_te's to report.
template <class S>
constexpr bool check_requantization(S& s, std::int32_t op, const op_plan& p, const node& n) {
  namespace q = ctnn::detail::quant;
  const tensor& x = s.m.tensor_at(n.inputs[0]);
  const tensor& y = s.m.tensor_at(n.output);
  // A result that is not quantized (a comparison's bool) has no quantization: the recipe is then the inputs'.
  const bool y_unquantized = is_quantized_activation(y.type) && !y.quant.quantized();
  if ((!is_quantized_activation(x.type) && !is_quantized_activation(y.type)) || !x.quant.quantized() || y_unquantized)
    return true;
  const double in = static_cast<double>(x.quant.scale), out = static_cast<double>(y.quant.scale);
  const quantization& second =
      n.input_count > 1 && n.inputs[1] >= 0 ? s.m.tensor_at(n.inputs[1]).quant : quantization{};
  std::int32_t shift = 0;
  bool radius = false;
  std::int32_t largest_shift = 31;
  if (ops::has_weights(n.kind)) {  // conv2d, depthwise_conv2d, dense, transpose_conv2d
    if (!second.quantized()) return true;
    shift = q::quantize_multiplier(in * largest_scale(second) / out).shift;
  } else {  // an op kind with a descriptor: the shift its recipe says to check
    // An operand its kernel reads with quantization it keeps itself (packed_integer_operands: the int8 LSTM's
    // packed weights, their scales in its attributes) has none here, and the recipe is still checked.
    const bool second_packed = (ops::facts(n.kind).packed_integer_operands & 2u) != 0;
    if (n.input_count > 1 && !second.quantized() && !second_packed) return true;
    kernel_params recipe{};
    recipe.type = x.type;
    recipe.out_type = y.type;
    ops::recipe_shift checked{};
    ops::quantized_operands operands{x.quant, second, y.quant};
    for (std::int32_t k = 0; k < n.input_count; ++k)
      if (n.inputs[static_cast<std::size_t>(k)] >= 0)
        operands.operand[static_cast<std::size_t>(k)] = s.m.tensor_at(n.inputs[static_cast<std::size_t>(k)]).quant;
    const bool described = ops::visit(n.kind, [&](auto d) {
      d.requantize(operands, n, recipe);
      checked = d.checked_shift(recipe);
    });
    if (!described || (recipe.output_multiplier == 0 && recipe.input_multiplier == 0)) return true;
    shift = checked.shift;
    radius = checked.sets_radius;
    largest_shift = checked.largest;
  }
  if (shift <= largest_shift && (!radius || shift >= 0)) return true;
  s.fail(frontend_error::tflite_unrepresentable_multiplier, op, p.kind,
         {.operator_code = static_cast<std::int64_t>(p.code), .rejected_value = shift});
  return false;
}

// An op of one data input (written to `data`) and, as operand 1, a constant int32 vector (pad: the
// pads; mean: the axes): that vector's tensor, or -1 after a diagnostic. `most`: the inputs the op may have
// (PADV2: its constant value, operand 2).
template <class S>
constexpr std::int32_t data_and_constant_i32(S& s, std::int32_t op, const op_plan& p, const operator_view& o,
                                             std::int32_t& data, std::uint32_t most = 2) {
  if (!expect_inputs(s, op, p, o, 2, most)) return -1;
  data = operand(s, o, 0);
  const std::int32_t values = operand(s, o, 1);
  if (s.failed() || !constant_operand(s, op, p, values, 1, dtype::i32)) return -1;
  return values;
}

}  // namespace ctnn::tflite::detail
