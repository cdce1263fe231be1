#pragma once
// pad: each dim d grows by attrs.pad.before_after[2d] before and [2d + 1] after, filled with a constant
// (attrs.pad.fill_value()) or read from the border (reflect, edge, wrap: ONNX Pad's modes) (TFLite PAD,
// ONNX Pad, and the explicit padding of ONNX's pools). The descriptor of op_kind::pad (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/enum_names.hpp>
#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/int8/data_movement.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct pad : op_defaults {
  static constexpr op_kind kind = op_kind::pad;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::pad;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8 || type == dtype::i16; }

  // Pads past the input's rank are an error; a padded extent past int32 too (shape_rules::add_extent).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    shape out = in;
    for (std::int32_t d = 0; d < static_cast<std::int32_t>(max_rank); ++d) {
      const std::int32_t before = n.attrs.pad.before_after[static_cast<std::size_t>(2 * d)];
      const std::int32_t after = n.attrs.pad.before_after[static_cast<std::size_t>(2 * d + 1)];
      if (d >= in.rank) {
        if (before != 0 || after != 0)
          m.fail({error_code::pads_beyond_rank, node_id, n.kind, {}, in, {.axis = d, .rank_actual = in.rank}});
        continue;
      }
      if (!shape_rules::add_extent(m, node_id, out, d, std::int64_t{before} + after)) return in;
    }
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.pad = n.attrs.pad;
  }
  // The fill in the result's quantization (TFLite's int8 PAD writes the output zero point for 0); TFLM's int16
  // PAD writes 0 whatever the zero point; PADV2 its value (the importer's fill: the integer times the scale).
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    namespace quant = ctnn::detail::quant;
    p.pad.quantized_fill = p.type == dtype::i16 ? quant::float_to_quantized(n.attrs.pad.fill_value(), q.out.scale, 0, -32768, 32767)
                                                : quant::float_to_int8(n.attrs.pad.fill_value(), q.out.scale, q.out.zero_point);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::pad(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::pad(p, static_cast<const T*>(operands[0]), static_cast<T*>(result),
                                   static_cast<T>(p->pad.quantized_fill));
    });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op& op) {
    put_pads(w, a.pad, op.rank);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_pads(w, p.pad, p.in.rank);
  }
  template <class Writer>
  static void put_requantization(Writer& w, const kernel_params& p) {
    w.field(", fill ", p.pad.quantized_fill);
  }
  // "  pads 0,0,1,1,1,1,0,0 value 0" or "  pads ... reflect".
  template <class Writer>
  static void put_pads(Writer& w, const pad_fields& pads, std::int32_t rank) {
    w.put("  ");
    put_pad_pairs(w, pads.before_after, rank);
    if (pads.mode == pad_mode::constant) {
      w.real_field(" value ", static_cast<double>(pads.fill_value()));
    } else {
      w.put(" ");
      w.put(name_of(pads.mode));
    }
  }
};

}  // namespace ctnn::ops
