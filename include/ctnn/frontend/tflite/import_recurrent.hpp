#pragma once
// The TFLite importer's stateful ops (import.hpp): SVDF, whose activation state is a variable tensor
// (tensor_role::state), UNIDIRECTIONAL_SEQUENCE_LSTM, whose output and cell states are, and the checks that a
// variable tensor is read only where an op keeps its state.
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/import_shape_ops.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::tflite::detail {

// SVDF as TFLM's PrepareSvdf takes it: five operands (input, feature weights, time weights, bias or none, the
// activation state: a variable tensor); float32 throughout, or int8 input, feature weights and output with
// time weights and state both int16 or both int8 and an int32 bias whose scale is the state's times the time
// weights'. Hybrid models (float input, int8 weights) are refused, as TFLM refuses them.
template <class S>
constexpr void import_svdf(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 5, 5)) return;
  im.inputs = {operand(s, im.view, 0), operand(s, im.view, 1), operand(s, im.view, 2), operand(s, im.view, 3, true),
               operand(s, im.view, 4)};
  im.input_count = 5;
  if (s.failed()) return;
  const std::int32_t rank = s.f.reader().template scalar<std::int32_t>(im.plan.options, schema::svdf::rank, 0);
  if (s.take_reader_error()) return;
  if (rank <= 0) return option_error(s, im, schema::svdf::rank, rank);
  svdf_fields f{};
  f.rank = rank;
  im.attrs.set(f);
  const tensor& in = s.m.tensor_at(im.inputs[0]);
  const tensor& time = s.m.tensor_at(im.inputs[2]);
  const tensor& state = s.m.tensor_at(im.inputs[4]);
  const bool integer = in.type == dtype::i8;
  if (integer) im.attrs.fused = activation::none;  // its int8 kernel's cell gate is TFLM's int16 tanh, not attrs.fused
  im.attrs.fused = integer ? activation::none : im.fused;  // TFLM's int8 kernel applies none (ops/svdf.hpp)
  if (!integer && in.type != dtype::f32)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind, {.rejected_value = static_cast<std::int64_t>(in.type)}, {}, in.dims);
  const dtype memory_type = integer ? time.type : dtype::f32;
  if (!constant_operand(s, im.op, im.plan, im.inputs[1], 1, in.type) ||
      (integer && memory_type != dtype::i16 && memory_type != dtype::i8) ||
      !constant_operand(s, im.op, im.plan, im.inputs[2], 2, memory_type) ||
      !constant_operand(s, im.op, im.plan, im.inputs[3], 3, integer ? dtype::i32 : dtype::f32)) {
    if (!s.failed()) constant_operand(s, im.op, im.plan, im.inputs[2], 2, dtype::i16);  // names the time weights
    return;
  }
  if (state.role != tensor_role::state)
    return s.fail(frontend_error::tflite_unsupported_tensor_feature, im.op, im.plan.kind,
                  {.tensor = im.inputs[4], .reason = static_cast<std::int64_t>(tensor_feature::state_not_variable)});
  if (state.type != memory_type || s.m.tensor_at(im.out).type != in.type)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind,
                  {.faulty_operand = state.type != memory_type ? 4 : -1,
                   .rejected_value = static_cast<std::int64_t>(state.type != memory_type ? state.type : s.m.tensor_at(im.out).type)},
                  {}, state.dims);
  // TFLM's Prepare: |bias scale - state scale * time weights scale| < 1e-5.
  if (integer && im.inputs[3] >= 0) {
    const double difference = static_cast<double>(s.m.tensor_at(im.inputs[3]).quant.scale) -
                              static_cast<double>(state.quant.scale * time.quant.scale);
    if (difference >= 1e-5 || difference <= -1e-5)
      return s.fail(frontend_error::tflite_invalid_quantization, im.op, im.plan.kind,
                    {.tensor = im.inputs[3], .reason = static_cast<std::int64_t>(quantization_problem::bias_scale)});
  }
}

// UNIDIRECTIONAL_SEQUENCE_LSTM's 24 operands in the file (TFLite's lstm_shared.h): the input; the input and
// recurrent weights of the input, forget, cell and output gates; the peepholes; the gates' biases; the
// projection's weights and bias; the output and cell states (variable tensors); the layer-norm coefficients.
namespace sequence_lstm_operand {
inline constexpr std::uint32_t input = 0, input_weights = 1, recurrent_weights = 5, peepholes = 9, biases = 12,
                               projection_weights = 16, projection_bias = 17, output_state = 18, cell_state = 19,
                               layer_norm = 20, count = 24;
// Whether operand k is given in the form ctnn runs: every weight and bias but the input gate's under CIFG (its
// input weights absent: the input gate is 1 - the forget gate), the three peepholes all or none (CIFG: no input
// gate's), a projection's bias only with its weights, the two states; no layer norm (TFLM refuses it, and
// peepholes, CIFG and projection too).
constexpr bool expected(std::uint32_t k, bool coupled, bool peephole, bool projected, bool projected_with_bias) {
  if (k == input_weights || k == recurrent_weights || k == biases) return !coupled;
  if (k == peepholes) return peephole && !coupled;
  if (k == peepholes + 1 || k == peepholes + 2) return peephole;
  if (k == projection_weights) return projected;
  if (k == projection_bias) return projected && projected_with_bias;
  return k < projection_weights || k == output_state || k == cell_state;
}
}  // namespace sequence_lstm_operand

// One concat along dimension 0 of `count` constants (a packed operand ops/sequence_lstm.hpp reads;
// fold_constants computes it at compile time): its tensor, -1 when full.
template <class S>
constexpr std::int32_t pack_constants(S& s, const op_import& im, const std::array<std::int32_t, max_node_inputs>& parts,
                                      std::int32_t count, std::string_view what) {
  shape packed = s.m.tensor_at(parts[0]).dims;
  for (std::int32_t k = 1; k < count; ++k) packed.dims[0] += s.m.tensor_at(parts[static_cast<std::size_t>(k)]).dims[0];
  const name label = numbered(what, static_cast<std::size_t>(im.op));
  const std::int32_t id = s.add_tensor_like(parts[0], packed, label);
  return id >= 0 && s.concat(parts.data(), count, 0, id, label) ? id : -1;
}

// The given ones of the file's operands `first`, `first + 1`, ... `first + count - 1`, then `extra` when given: the
// parts pack_constants packs, and (returned) how many.
constexpr std::int32_t given_parts(const std::array<std::int32_t, sequence_lstm_operand::count>& file, std::uint32_t first,
                                   std::uint32_t count, std::int32_t extra, std::array<std::int32_t, max_node_inputs>& parts) {
  std::int32_t n = 0;
  for (std::uint32_t k = first; k < first + count; ++k)
    if (file[k] >= 0) parts[static_cast<std::size_t>(n++)] = file[k];
  if (extra >= 0) parts[static_cast<std::size_t>(n++)] = extra;
  return n;
}

// UNIDIRECTIONAL_SEQUENCE_LSTM as TFLM's Prepare takes it (ValidateTensorStatus, ValidateTensorSize), and with
// TFLite's peepholes, CIFG and projection (sequence_lstm_operand::expected): 24 operands; float32 throughout, or
// TFLM's int8 form (int8 input, weights, output state and output, int32 biases, an int16 cell state whose scale is a
// power of two; weights of one scale and no zero point; no CIFG, peepholes or projection; its gates' weight scales
// kept in attrs.sequence_lstm_scales, the packed constants not quantized: docs/design.md §2); the output state's extent is the outputs' (the projection's rows, else
// the cells'), the output [d0, d1, outputs] over the input's [d0, d1, features]; the cell gate's activation TANH
// (TFLM applies no other). A refused operand is named by its position in the file. The node's operands: the input,
// the three packed constants (the projection's bias after the gates' biases), the two states, the packed
// peepholes (or -1) and the projection's weights, as ops/sequence_lstm.hpp reads them.
template <class S>
constexpr void import_sequence_lstm(S& s, op_import& im) {
  namespace slot = sequence_lstm_operand;
  namespace option = schema::unidirectional_sequence_lstm;
  if (!expect_inputs(s, im.op, im.plan, im.view, slot::count, slot::count)) return;
  std::array<std::int32_t, slot::count> file{};
  for (std::uint32_t k = 0; k < slot::count; ++k) {
    file[k] = operand(s, im.view, k, true);
    if (s.failed()) return;
  }
  const bool coupled = file[slot::input_weights] < 0, peephole = file[slot::peepholes + 1] >= 0;
  const bool projection = file[slot::projection_weights] >= 0, projection_bias = file[slot::projection_bias] >= 0;
  for (std::uint32_t k = 0; k < slot::count; ++k)
    if ((file[k] >= 0) != slot::expected(k, coupled, peephole, projection, projection_bias))
      return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                    {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = k});
  flatbuffers::reader& r = s.f.reader();
  const auto cell_activation = r.template scalar<activation_function>(im.plan.options, option::fused_activation, activation_function::none);
  const float cell_clip = r.template scalar<float>(im.plan.options, option::cell_clip, 0.0f);
  const float projection_clip = r.template scalar<float>(im.plan.options, option::proj_clip, 0.0f);
  const bool time_major = r.template scalar<std::uint8_t>(im.plan.options, option::time_major, 0) != 0;
  if (s.take_reader_error()) return;
  if (cell_activation != activation_function::tanh)
    return option_error(s, im, option::fused_activation, static_cast<std::int64_t>(cell_activation));
  im.attrs.fused = activation::tanh;
  im.attrs.set(sequence_lstm_fields{time_major ? 1 : 0,
                                    std::bit_cast<std::uint32_t>(cell_clip),
                                    coupled ? 1 : 0,
                                    peephole ? 1 : 0,
                                    projection ? (projection_bias ? 2 : 1) : 0,
                                    std::bit_cast<std::uint32_t>(projection_clip)});

  const tensor& in = s.m.tensor_at(file[slot::input]);
  const bool integer = in.type == dtype::i8;
  if (integer) im.attrs.fused = activation::none;  // its int8 kernel's cell gate is TFLM's int16 tanh, not attrs.fused
  if (!integer && in.type != dtype::f32)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind, {.rejected_value = static_cast<std::int64_t>(in.type)}, {}, in.dims);
  // TFLM's int8 kernel has no CIFG, peepholes or projection (its ValidateTensorStatus): the first such operand.
  const std::uint32_t beyond_tflm = coupled ? slot::input_weights : peephole ? slot::peepholes : slot::projection_weights;
  if (integer && (coupled || peephole || projection))
    return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                  {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = beyond_tflm});
  if (!expect_rank(s, im.op, im.plan, file[slot::input], 3)) return;
  const std::int32_t cells = s.m.tensor_at(file[slot::input_weights + 1]).dims[0];  // TFLM: the state's extent
  const std::int32_t outputs = projection ? s.m.tensor_at(file[slot::projection_weights]).dims[0] : cells;
  const std::int32_t batch = time_major ? in.dims[1] : in.dims[0];
  for (std::uint32_t k = slot::input_weights; k < slot::cell_state + 1; ++k) {
    if (file[k] < 0) continue;
    const tensor& t = s.m.tensor_at(file[k]);
    const bool state = k == slot::output_state || k == slot::cell_state;
    // int8: the weights and the output state int8, the biases int32, the cell state int16 (TFLM's 8x8_16).
    const dtype type = !integer                                       ? dtype::f32
                       : k == slot::cell_state                        ? dtype::i16
                       : k >= slot::biases && k < slot::biases + 4    ? dtype::i32
                                                                      : dtype::i8;
    if (!state && !constant_operand(s, im.op, im.plan, file[k], k, type)) return;
    if (state && t.role != tensor_role::state)
      return s.fail(frontend_error::tflite_unsupported_tensor_feature, im.op, im.plan.kind,
                    {.tensor = file[k], .reason = static_cast<std::int64_t>(tensor_feature::state_not_variable)});
    const bool weights = k < slot::peepholes;
    // TFLM takes the cell state's scale as a power of two (CheckedLog2's exponent; the converter makes one), and
    // its int16 tanh shifts by it: beyond [2^-40, 2^15] its shifts leave int32.
    const ctnn::detail::quant::rounded_log2 cell_scale = ctnn::detail::quant::checked_log2(t.quant.scale);
    const bool cell_scale_not_power_of_two =
        k == slot::cell_state && !(cell_scale.power_of_two && cell_scale.exponent >= -40 && cell_scale.exponent <= 15);
    if (integer && ((weights && (t.quant.per_channel() || t.quant.zero_point != 0)) || cell_scale_not_power_of_two))
      return s.fail(frontend_error::tflite_invalid_quantization, im.op, im.plan.kind,
                    {.tensor = file[k],
                     .reason = static_cast<std::int64_t>(weights ? quantization_problem::lstm_weights : quantization_problem::lstm_cell_scale)});
    if (state && integer && t.type != type)
      return s.fail(frontend_error::tflite_unsupported_tensor_feature, im.op, im.plan.kind,
                    {.tensor = file[k], .reason = static_cast<std::int64_t>(tensor_feature::state_type)});
    if (state && t.type != type)
      return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind,
                    {.faulty_operand = static_cast<std::int64_t>(k) + 1, .rejected_value = static_cast<std::int64_t>(t.type)}, {}, t.dims);
    const shape want = k < slot::recurrent_weights         ? make_shape(cells, in.dims[2])
                       : k < slot::peepholes               ? make_shape(cells, outputs)
                       : k < slot::projection_weights      ? make_shape(cells)
                       : k == slot::projection_weights     ? make_shape(outputs, cells)
                       : k == slot::projection_bias        ? make_shape(outputs)
                       : k == slot::output_state           ? make_shape(batch, outputs)
                                                           : make_shape(batch, cells);
    if (state ? t.dims.elements() != want.elements() : t.dims != want)
      return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.input_slot = k}, want, t.dims);
  }
  if (!expect_output_shape(s, im, im.out, make_shape(in.dims[0], in.dims[1], outputs))) return;
  if (s.m.tensor_at(im.out).type != in.type)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind,
                  {.rejected_value = static_cast<std::int64_t>(s.m.tensor_at(im.out).type)}, {}, s.m.tensor_at(im.out).dims);
  // int8: each gate's weight scales, for its requantization (the packed weights keep only the integers).
  for (std::uint32_t k = 0; integer && k < 8; ++k)
    im.attrs.sequence_lstm_scales.weight_scale_bits[k] = std::bit_cast<std::uint32_t>(s.m.tensor_at(file[slot::input_weights + k]).quant.scale);
  std::array<std::int32_t, max_node_inputs> parts{};
  const auto packed = [&](std::uint32_t first, std::uint32_t count, std::int32_t extra, std::string_view what) {
    const std::int32_t id = pack_constants(s, im, parts, given_parts(file, first, count, extra, parts), what);
    if (id >= 0 && integer) s.m.tensor_at(id).quant = {};  // its integers, each part's own scale (fold_constants copies them)
    return id;
  };
  im.inputs = {file[slot::input],
               packed(slot::input_weights, 4, -1, "lstm_input_weights"),
               packed(slot::recurrent_weights, 4, -1, "lstm_recurrent_weights"),
               packed(slot::biases, 4, file[slot::projection_bias], "lstm_biases"),
               file[slot::output_state],
               file[slot::cell_state],
               peephole ? packed(slot::peepholes, 3, -1, "lstm_peepholes") : -1,
               file[slot::projection_weights]};
  im.input_count = im.attrs.sequence_lstm().operand_count();
}

// Every variable tensor a node reads must be that node's state (its descriptor's state_operands), and no
// other node may read it: one op owns each state, so the order of its updates is the graph's. Run over the
// whole graph once the ops are imported (the nodes an import adds around an op included).
template <class S>
constexpr void check_state_operands(S& s) {
  for (std::int32_t id = 0; id < s.m.node_count; ++id) {
    const node& n = s.m.node_at(id);
    const std::uint32_t state_slots = ops::facts(n.kind).state_operands;
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
      // (a resource variable's state: read and written by several ops, in the file's order: import_variables.hpp)
      if (t < 0 || s.m.tensor_at(t).role != tensor_role::state || s.is_variable_state(t)) continue;
      bool owned = ((state_slots >> k) & 1u) != 0;
      for (std::int32_t other = 0; other < s.m.node_count && owned; ++other)
        for (std::int32_t j = 0; j < s.m.node_at(other).input_count && other != id; ++j)
          owned = owned && s.m.node_at(other).inputs[static_cast<std::size_t>(j)] != t;
      if (!owned)
        return s.fail(frontend_error::tflite_unsupported_tensor_feature, -1, n.kind,
                      {.tensor = t, .reason = static_cast<std::int64_t>(tensor_feature::variable_use)});
    }
  }
}

}  // namespace ctnn::tflite::detail
