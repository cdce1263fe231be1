#pragma once
// The printer's line for a call's requantization (pass::compute_requantization's decisions), under the
// call in the `calls` section, for calls that read or write quantized tensors:
//   "        requantize tflite: offsets in 5 out -128 weights 0, multiplier 1518500250 shift -7, clamp [-128, 127],
//    per-channel multipliers (8) of scales in 0.02 weights 8 per channel out 0.05"
//   "        requantize onnx: zero points x 3 w 0 y -2, scales x 0.02 y 0.05, multiplier 0.0123, weights u8 in onnx layout"
// Templated on the writer and the module view (print/printer.hpp's), so that it depends on neither.
#include <bit>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/requantization_recipe.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::detail {

template <class Writer>
void put_multiplier(Writer& w, std::string_view what, std::int32_t multiplier, std::int32_t shift) {
  if (multiplier == 0) return;
  w.put(", ");
  w.put(what);
  w.field(" ", multiplier);
  w.field(" shift ", shift);
}

template <class Writer>
void put_table(Writer& w, const requantization_recipe& r) {
  switch (r.table) {
    case requantization_table::none: return;
    case requantization_table::channel_multipliers:
      w.field(", per-channel multipliers (", r.channels);
      w.real_field(") of scales in ", static_cast<double>(std::bit_cast<float>(r.input_scale_bits)));
      w.put(" weights ");
      if (r.weight_channels > 0) {
        w.number(r.weight_channels);
        w.put(" per channel");
      } else {
        w.real(static_cast<double>(std::bit_cast<float>(r.weight_scale_bits)));
      }
      w.real_field(" out ", static_cast<double>(std::bit_cast<float>(r.output_scale_bits)));
      return;
    case requantization_table::channel_multipliers_of_call:
      w.field(", per-channel multipliers (", r.channels);
      w.put(") of the call's tensors' scales");
      return;
    case requantization_table::concat_inputs:
      w.field(", per-input rescaling (", r.channels);
      w.put(" inputs)");
      return;
  }
}

template <class Writer>
void put_tflite_requantization(Writer& w, const kernel_call& call) {
  const kernel_params& p = call.params;
  w.field("requantize tflite: offsets in ", p.input_offset);
  if (p.in2.rank > 0) w.field(" in2 ", p.input2_offset);  // binary ops
  if (ops::has_weights(p.kind)) w.field(" weights ", p.weights_offset);
  w.field(" out ", p.output_offset);
  put_multiplier(w, "multiplier", p.output_multiplier, p.output_shift);
  put_multiplier(w, "input multiplier", p.input_multiplier, p.input_shift);
  put_multiplier(w, "input2 multiplier", p.input2_multiplier, p.input2_shift);
  if (p.left_shift != 0) w.field(", left shift ", p.left_shift);
  ops::visit(p.kind, [&](auto d) { d.put_requantization(w, p); });
  if (p.activation_min != 0 || p.activation_max != 0) {
    w.field(", clamp [", p.activation_min);
    w.field(", ", p.activation_max);
    w.put("]");
  }
  put_table(w, call.requantization);
}

template <class Writer>
void put_onnx_requantization(Writer& w, const kernel_call& call) {
  const kernel_params& p = call.params;
  w.field("requantize onnx: zero points x ", -p.input_offset);
  if (p.kind == op_kind::conv2d || p.kind == op_kind::dense) w.field(" w ", -p.weights_offset);
  w.field(" y ", p.output_offset);
  w.real_field(", scales x ", static_cast<double>(std::bit_cast<float>(p.onnx.input_scale_bits)));
  w.real_field(" y ", static_cast<double>(std::bit_cast<float>(p.onnx.output_scale_bits)));
  if (p.onnx.multiplier_bits != 0) {
    w.real_field(", multiplier ", static_cast<double>(std::bit_cast<float>(p.onnx.multiplier_bits)));
  }
  if (p.onnx.scale_count > 1) {
    w.field(", per-channel scales (", p.onnx.scale_count);
    w.put(")");
  }
  if (p.kind == op_kind::conv2d || p.kind == op_kind::dense) {
    w.put(", weights ");
    w.put(name_of(p.onnx.weights_type));
    if (p.onnx.layout == data_layout::onnx) w.put(" in onnx layout");
    if (p.onnx.layout == data_layout::onnx_nhwc) w.put(" in onnx layout, nhwc data");
  }
}

// The line under call `call`, if it requantizes (nothing for float32 calls and plain integer ops).
template <class Writer, class ModuleView>
void write_call_requantization(Writer& w, const ModuleView& m, const kernel_call& call) {
  const auto quantized = [&](std::int32_t id) {
    return m.valid_tensor(id) && (m.tensor_at(id).type == dtype::i8 || m.tensor_at(id).type == dtype::u8);
  };
  const kernel_params& p = call.params;
  const bool onnx_scaled = p.requantization == requantization_policy::onnx && (p.onnx.input_scale_bits | p.onnx.output_scale_bits) != 0;
  const bool tflite_quantized = p.requantization == requantization_policy::tflite && (quantized(call.operands[0]) || quantized(call.result));
  if (!onnx_scaled && !tflite_quantized) return;
  w.spaces(8);
  if (onnx_scaled) put_onnx_requantization(w, call);
  else put_tflite_requantization(w, call);
  w.line();
}

}  // namespace ctnn::detail
