#pragma once
// The TFLite importer's windowed and linear ops (import.hpp; rows in import_plan.hpp's op_table):
// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D, MAX_POOL_2D, TRANSPOSE_CONV and BATCH_MATMUL.
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

// One axis of TRANSPOSE_CONV's pads, as TFLM's Prepare computes them (ComputePaddingHeightWidth over the
// result's extent, dilation 1): the extent a convolution of the result would have, the padding that
// convolution would need, its first half (the odd one at the end).
constexpr void transpose_conv_pads(std::int32_t out, std::int32_t kernel, std::int32_t stride, bool same,
                                   std::int32_t& before, std::int32_t& after) {
  const std::int32_t conv_out = same ? (out + stride - 1) / stride : (out + stride - kernel) / stride;
  std::int32_t total = (conv_out - 1) * stride + kernel - out;
  total = total > 0 ? total : 0;
  before = total / 2;
  after = total - before;
}

// TRANSPOSE_CONV: the result's shape (operand 0, a constant int32 vector equal to the output tensor's shape,
// which is what TFLM reads), OHWI weights (1), the data (2) and an optional bias (3): float32, int32 for int8
// data, int64 for int16 data (TFLM also widens an int16 bias; ctnn refuses it).
template <class S>
constexpr void import_transpose_conv(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  if (!expect_inputs(s, op, p, o, 3, 4)) return;
  const std::int32_t sizes = operand(s, o, 0), w = operand(s, o, 1), x = operand(s, o, 2);
  const std::int32_t b = o.inputs.length > 3 ? operand(s, o, 3, true) : -1;
  if (s.failed() || !constant_operand(s, op, p, sizes, 0, dtype::i32)) return;
  const dtype data_type = s.m.tensor_at(x).type;
  const tensor& weights = s.m.tensor_at(w);
  if (data_type == dtype::f32 && weights.type != dtype::f32) {
    s.fail(frontend_error::tflite_hybrid_model, op, p.kind, {.operator_code = static_cast<std::int64_t>(p.code), .tensor = w});
    return;
  }
  if (!constant_operand(s, op, p, w, 1, weights.type)) return;
  const dtype accumulator = data_type == dtype::f32 ? dtype::f32 : data_type == dtype::i16 ? dtype::i64 : dtype::i32;
  if (b >= 0 && !constant_operand(s, op, p, b, 3, accumulator)) return;
  if (!expect_rank(s, op, p, x, 4) || !expect_rank(s, op, p, w, 4) || !expect_rank(s, op, p, im.out, 4)) return;
  const shape result = s.m.tensor_at(im.out).dims;
  bool sizes_agree = s.m.tensor_at(sizes).dims.elements() == 4;
  for (std::int32_t d = 0; sizes_agree && d < 4; ++d) sizes_agree = constant_i32(s, sizes, d) == result[d];
  if (!sizes_agree) {
    s.fail(frontend_error::tflite_unsupported_operand, op, p.kind, {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 0});
    return;
  }
  namespace opt = schema::transpose_conv;
  window& win = im.attrs.win;
  win.kernel_h = weights.dims[1];
  win.kernel_w = weights.dims[2];
  if (!read_window(s, op, p, opt::padding, opt::stride_w, opt::stride_h, -1, -1, win)) return;
  const bool same = win.mode == padding::same;
  transpose_conv_pads(result[1], win.kernel_h, win.stride_h, same, win.pad_top, win.pad_bottom);
  transpose_conv_pads(result[2], win.kernel_w, win.stride_w, same, win.pad_left, win.pad_right);
  win.mode = padding::explicit_pads;
  im.attrs.target = result;
  im.attrs.fused = im.fused;
  im.inputs = {x, w, b};
  im.input_count = 3;
}

// BATCH_MATMUL: lhs and rhs of rank 2 to 5, batch dims broadcast (batch_matmul's shape rule); adj_x (adj_y)
// multiplies by the operand with its last two dims swapped: a transpose node before the op. TFLM refuses
// asymmetric_quantize_inputs (a hybrid op): so does ctnn.
template <class S>
constexpr void import_batch_matmul(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  flatbuffers::reader& r = s.f.reader();
  if (!expect_inputs(s, op, p, o, 2, 2)) return;
  std::array<std::int32_t, 2> sides{operand(s, o, 0), operand(s, o, 1)};
  const bool hybrid = r.scalar<bool>(p.options, schema::batch_matmul::asymmetric_quantize_inputs, false);
  const std::array<bool, 2> adjoint{r.scalar<bool>(p.options, schema::batch_matmul::adj_x, false),
                                    r.scalar<bool>(p.options, schema::batch_matmul::adj_y, false)};
  if (s.failed() || s.take_reader_error()) return;
  if (hybrid) {
    s.fail(frontend_error::tflite_hybrid_model, op, p.kind, {.operator_code = static_cast<std::int64_t>(p.code), .tensor = sides[1]});
    return;
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const shape dims = s.m.tensor_at(sides[k]).dims;
    if (dims.rank < 2 || dims.rank > 5) {
      s.fail(error_code::unsupported_rank, op, p.kind, {.rank_expected = dims.rank < 2 ? 2 : 5, .rank_actual = dims.rank}, {}, dims);
      return;
    }
    if (!adjoint[k]) continue;
    transpose_fields swap{};
    for (std::int32_t d = 0; d < dims.rank; ++d) swap.perm[static_cast<std::size_t>(d)] = d;
    swap.perm[static_cast<std::size_t>(dims.rank - 2)] = dims.rank - 1;
    swap.perm[static_cast<std::size_t>(dims.rank - 1)] = dims.rank - 2;
    shape swapped = dims;
    swapped.dims[static_cast<std::size_t>(dims.rank - 2)] = dims.last();
    swapped.dims[static_cast<std::size_t>(dims.rank - 1)] = dims.at(-2);
    const name label = numbered(k == 0 ? "adj_x" : "adj_y", static_cast<std::size_t>(op));
    const std::int32_t moved = s.add_tensor_like(sides[k], swapped, label);
    if (moved < 0 || !s.transpose(sides[k], moved, swap, label)) return;
    sides[k] = moved;
  }
  im.inputs = {sides[0], sides[1]};
  im.input_count = 2;
}

}  // namespace ctnn::tflite::detail
