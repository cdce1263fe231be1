#pragma once
// The TFLite importer's windowed and linear ops (import.hpp; rows in import_plan.hpp's op_table):
// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D and MAX_POOL_2D.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: data, constant weights and bias; a flatten node before a
// FULLY_CONNECTED whose input is not [batch, features] (op_plan::flatten_node).
template <class S>
constexpr void import_conv(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  flatbuffers::reader& r = s.f.reader();
  if (!expect_inputs(s, op, p, o, 2, 3)) return;
  const std::int32_t x = operand(s, o, 0), w = operand(s, o, 1), b = o.inputs.length > 2 ? operand(s, o, 2, true) : -1;
  if (s.failed()) return;
  const tensor& weights = s.m.tensor_at(w);
  const bool float_input = s.m.tensor_at(x).type == dtype::f32;
  bool hybrid = float_input && weights.type != dtype::f32;
  if (p.kind == op_kind::dense)
    hybrid = hybrid || r.scalar<bool>(p.options, schema::fully_connected::asymmetric_quantize_inputs, false);
  if (hybrid) {
    s.fail(frontend_error::tflite_hybrid_model, op, p.kind,
           {.operator_code = static_cast<std::int64_t>(p.code), .tensor = w});
    return;
  }
  if (!constant_operand(s, op, p, w, 1, weights.type)) return;
  // The bias has the accumulator's type, as TFLM's kernels read it: float32, int32 for int8 data, int64 for
  // int16 data (16x8, as TFLite's converter writes it; TFLM's int32-accumulator variant of CONV_2D and
  // FULLY_CONNECTED with an int32 bias is not one of ctnn's kernels). TFLM reads any other as that type (past
  // the end of a smaller one): refused.
  const dtype data_type = s.m.tensor_at(x).type;
  const dtype accumulator = data_type == dtype::f32 ? dtype::f32 : data_type == dtype::i16 ? dtype::i64 : dtype::i32;
  if (b >= 0 && !constant_operand(s, op, p, b, 2, accumulator)) return;
  const shape in = s.m.tensor_at(x).dims;
  const shape ws = weights.dims;
  if (p.kind == op_kind::dense) {
    if (!expect_rank(s, op, p, w, 2)) return;
    if (r.scalar<std::int8_t>(p.options, schema::fully_connected::weights_format, 0) != 0) {
      s.fail(frontend_error::tflite_unsupported_fully_connected, op, p.kind,
             {.operator_code = static_cast<std::int64_t>(p.code),
              .reason = static_cast<std::int64_t>(fully_connected_feature::shuffled_weights)});
      return;
    }
    if (r.scalar<bool>(p.options, schema::fully_connected::keep_num_dims, false) && in.rank > 2) {
      s.fail(frontend_error::tflite_unsupported_fully_connected, op, p.kind,
             {.operator_code = static_cast<std::int64_t>(p.code),
              .reason = static_cast<std::int64_t>(fully_connected_feature::keep_num_dims)});
      return;
    }
    im.attrs.units = ws[0];
  } else {
    if (!expect_rank(s, op, p, x, 4) || !expect_rank(s, op, p, w, 4)) return;
    im.attrs.win.kernel_h = ws[1];
    im.attrs.win.kernel_w = ws[2];
    if (p.kind == op_kind::conv2d) {
      namespace opt = schema::conv_2d;
      if (!read_window(s, op, p, opt::padding, opt::stride_w, opt::stride_h, opt::dilation_w, opt::dilation_h,
                       im.attrs.win))
        return;
      im.attrs.units = ws[0];
      im.attrs.groups = ws[3] > 0 && in[3] % ws[3] == 0 ? in[3] / ws[3] : 1;  // else infer_types reports it
    } else {
      namespace opt = schema::depthwise_conv_2d;
      if (!read_window(s, op, p, opt::padding, opt::stride_w, opt::stride_h, opt::dilation_w, opt::dilation_h,
                       im.attrs.win))
        return;
      im.attrs.depth_multiplier = in[3] > 0 && ws[3] % in[3] == 0 ? ws[3] / in[3] : 1;  // derived, as TFLM does
    }
  }
  im.attrs.fused = im.fused;
  std::int32_t data = x;
  if (p.flatten_node) {
    // TFLite flattens the input to [elements / features, features]; ctnn's dense keeps dim 0.
    const shape target = make_shape(p.flatten_batch, p.flatten_features);
    const name label = numbered("flatten", static_cast<std::uint32_t>(im.op));
    const std::int32_t flat = s.add_tensor_like(x, target, label);
    if (flat < 0 || !s.reshape(x, flat, target, label)) return;
    data = flat;
  }
  im.inputs = {data, w, b};
  im.input_count = 3;
}

// AVERAGE_POOL_2D, MAX_POOL_2D (a fused activation: a node after the pool, added by the driver).
template <class S>
constexpr void import_pool(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  flatbuffers::reader& r = s.f.reader();
  if (!expect_inputs(s, op, p, o, 1, 1)) return;
  im.inputs[0] = operand(s, o, 0);
  im.input_count = 1;
  if (s.failed()) return;
  namespace opt = schema::pool_2d;
  im.attrs.win.kernel_w = r.scalar<std::int32_t>(p.options, opt::filter_width, 0);
  im.attrs.win.kernel_h = r.scalar<std::int32_t>(p.options, opt::filter_height, 0);
  if (!read_window(s, op, p, opt::padding, opt::stride_w, opt::stride_h, -1, -1, im.attrs.win)) return;
}

}  // namespace ctnn::tflite::detail
