#pragma once
// QDQ models (onnxruntime's quantizer with QuantFormat.QDQ, and other exporters): int8/uint8 activations
// and weights written as DequantizeLinear -> float op -> QuantizeLinear. The importer lowers such groups to
// the integer ops QLinearConv and QLinearMatMul import to (quantized.hpp), as onnxruntime's QDQ
// transformers fuse them; what it cannot lower stays float (DequantizeLinear, the float op, QuantizeLinear),
// or is refused with a diagnostic. docs/frontends.md ("QDQ models") states the rules:
//  * DequantizeLinear of an activation: imported as usual (a dequantize node) and remembered (value::dq).
//    Of a constant (int8 weights, an int32 bias): no node; the value is qdq_deferred, read by a lowered op;
//    another op reading it gets a dequantize node of the stored integers (8-bit), or a diagnostic (int32).
//  * Conv, Gemm, MatMul whose input is a DequantizeLinear of an activation and whose weights (and bias) are
//    DequantizeLinear of constants: deferred until the QuantizeLinear that reads the result, which lowers
//    the group: Conv -> QLinearConv's conv2d (NHWC data; per-tensor or axis-0 weights); MatMul (B [K, N]) and Gemm
//    (transB = 0, no C) -> QLinearMatMul's dense (per-tensor or axis-1 weights); Gemm with transB = 1 (B [N, K],
//    PyTorch's Linear) -> a 1x1 conv2d over [M, K, 1, 1]. The bias: int32, zero point 0, scale
//    x_scale * w_scale (per channel; within 2^-20 relative). Gemm needs alpha = beta = 1, transA = 0. A Relu
//    or Clip between the op and its QuantizeLinear: dropped where the result's range implies it, a Relu
//    otherwise max(y, y_zero_point).
//  * Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Identity and MaxPool of a DequantizeLinear (per tensor)
//    run on the integers (DequantizeLinear commutes with them: it is monotone and element-wise), and their
//    result is a DequantizeLinear of that with the same scale and zero point.
//  * QuantizeLinear of a DequantizeLinear with the same scale, zero point and type: the integers themselves;
//    of the same scale into another zero point or 8-bit type: an integer requantization (quantize node),
//    saturate(x - x_zp + y_zp), exactly what onnxruntime's float DequantizeLinear and QuantizeLinear give.
//  * GlobalAveragePool of a DequantizeLinear (per tensor) read by a QuantizeLinear into the same 8-bit type:
//    onnxruntime's QLinearGlobalAveragePool, bit-exact (lower_pool states the arithmetic); otherwise float.
//    AveragePool likewise: onnxruntime's QLinearAveragePool (lower_window_pool), or over the whole image
//    without pads its QLinearGlobalAveragePool.
//  * Add or Mul of two DequantizeLinears (per tensor, numpy broadcasting) read by a QuantizeLinear into the same
//    8-bit type: onnxruntime's QLinearAdd / QLinearMul (its x86-64 arithmetic, bit-exact: lower_binary);
//    otherwise float.
//  * Anything else (Concat, activations, Softmax, ...) stays float between its
//    DequantizeLinear and QuantizeLinear nodes: ONNX's float semantics, within 1 LSB of onnxruntime's integer
//    QLinear* kernels. (onnxruntime fuses a DQ -> Softmax -> Q only when the input and output types agree,
//    into QLinearSoftmax: a table of float(exp((i - 255 + b) * x_scale)) computed in double, b from the
//    axis length, summed in float, y = nearbyintf(t * floor(1 / y_scale) / sum) + y_zp; the MLPerf models'
//    softmax reads uint8 and writes int8, which onnxruntime runs in float, as ctnn does.)
// The dequantize nodes no op reads any more are removed at the end of the import (erase_unread_nodes).
#include <array>
#include <bit>
#include <cstdint>

#include <ctnn/frontend/onnx/import_table.hpp>

namespace ctnn::onnx::detail {

template <class S>
struct qdq_lowering {
  S& s;

  constexpr bool deferred(std::int32_t v) const { return v >= 0 && s.at(v).kind == value_kind::qdq_deferred; }
  // A DequantizeLinear of a constant (weights, bias).
  constexpr bool dequantized_constant(std::int32_t v) const { return deferred(v) && s.at(v).dq.source >= 0; }
  // A DequantizeLinear of an activation with one scale (a per-axis one is a plain float value here).
  constexpr bool dequantized_activation(std::int32_t v) {
    if (v < 0 || deferred(v) || s.at(v).dq.source < 0) return false;
    const dequantized_from& d = s.at(v).dq;
    return !s.is_constant(d.source) && one_value(d.scale) && (d.zero_point < 0 || one_value(d.zero_point));
  }
  constexpr bool one_value(std::int32_t v) { return v >= 0 && s.is_constant(v) && s.constant_shape(v).elements() == 1; }

  // ---------------------------------------------------------------------------------------------------
  // The hooks (import_node calls `import` before the op's row): true when the node is imported here.

  constexpr bool import(const node_view& n, const operands& o, std::int32_t result) {
    switch (n.type) {
      case op_type::DequantizeLinear: return dequantize(n, o, result);
      case op_type::Conv:
      case op_type::Gemm:
      case op_type::MatMul: return defer_weighted(n, o, result);
      case op_type::GlobalAveragePool:
      case op_type::AveragePool: return defer_pool(n, o, result);
      case op_type::Add:
      case op_type::Mul: return defer_binary(n, o, result);
      case op_type::QuantizeLinear: return quantize(o, result);
      case op_type::Reshape:
      case op_type::Flatten:
      case op_type::Squeeze:
      case op_type::Unsqueeze:
      case op_type::Identity: return same_dequantized_constant(o, result) || commute(n, o, result);
      case op_type::Transpose:
      case op_type::MaxPool: return commute(n, o, result);
      case op_type::Relu:
      case op_type::Clip: return clamp(n, o, result);
      default: return false;
    }
  }

  // DequantizeLinear: remembered; of a constant, deferred (no node).
  constexpr bool dequantize(const node_view& n, const operands& o, std::int32_t result) {
    if (o.count < 2 || o.id[0] < 0 || o.id[1] < 0) return false;  // the row's checks name the problem
    s.at(result).dq = dequantized_from{o.id[0], o.id[1], o.count > 2 ? o.id[2] : -1, n.proto};
    if (!s.is_constant(o.id[0])) return false;
    s.at(result).kind = value_kind::qdq_deferred;
    return true;
  }

  // Identity of a DequantizeLinear of a constant (torch.onnx.export's Identity of a parameter equal to an
  // earlier one, which onnxruntime's quantizer quantizes once): that deferred constant under another name, so
  // that the group reading it lowers it or names it in its refusal.
  constexpr bool same_dequantized_constant(const operands& o, std::int32_t result) {
    if (o.count != 1 || !dequantized_constant(o.id[0]) || s.at(o.id[0]).deferred_op.length > 0) return false;
    s.at(result).kind = value_kind::qdq_deferred;
    s.at(result).dq = s.at(o.id[0]).dq;
    return true;
  }

  // Conv, Gemm, MatMul over dequantized weights: deferred to the QuantizeLinear of their result.
  constexpr bool defer_weighted(const node_view& n, const operands& o, std::int32_t result) {
    if (o.count < 2 || !dequantized_activation(o.id[0]) || !dequantized_constant(o.id[1])) return false;
    if (o.count > 2 && o.id[2] >= 0 && !dequantized_constant(o.id[2])) return false;
    s.at(result).kind = value_kind::qdq_deferred;
    s.at(result).deferred_op = n.proto;
    s.at(result).deferred_index = s.node_index;
    return true;
  }

  // GlobalAveragePool or AveragePool of a DequantizeLinear of an 8-bit activation (per tensor): deferred to
  // the QuantizeLinear of its result, which lowers it to the integer pool (lower_pool); another reader of the
  // result, or a QuantizeLinear it cannot lower to, gets the float pool (float_op).
  constexpr bool defer_pool(const node_view& n, const operands& o, std::int32_t result) {
    if (o.count != 1 || !dequantized_activation(o.id[0])) return false;
    s.at(result).kind = value_kind::qdq_deferred;
    s.at(result).deferred_op = n.proto;
    s.at(result).deferred_index = s.node_index;
    return true;
  }
  constexpr bool deferred_pool(std::int32_t v) {
    if (!deferred(v) || s.at(v).deferred_op.length == 0) return false;
    const node_view n = s.f.read_node(s.at(v).deferred_op);
    return !s.take_reader_error() && (n.type == op_type::GlobalAveragePool || n.type == op_type::AveragePool);
  }

  // Add or Mul of two DequantizeLinears of 8-bit activations (per tensor): deferred to the QuantizeLinear of its
  // result, which lowers it to QLinearAdd's / QLinearMul's integer kernel (lower_binary); otherwise the float op
  // (float_op).
  constexpr bool defer_binary(const node_view& n, const operands& o, std::int32_t result) {
    const bool lowerable = o.count == 2 && dequantized_activation(o.id[0]) && dequantized_activation(o.id[1]);
    if (lowerable) {
      value& r = s.at(result);
      r.kind = value_kind::qdq_deferred, r.deferred_op = n.proto, r.deferred_index = s.node_index;
    }
    return lowerable;
  }
  constexpr bool deferred_binary(std::int32_t v) {
    if (!deferred(v) || s.at(v).deferred_op.length == 0) return false;
    const op_type type = s.f.read_node(s.at(v).deferred_op).type;
    return !s.take_reader_error() && (type == op_type::Add || type == op_type::Mul);
  }
  // A deferred op that is imported as the float op when no QuantizeLinear lowers it (a pool, an Add).
  constexpr bool deferred_float_op(std::int32_t v) { return deferred_pool(v) || deferred_binary(v); }

  // QuantizeLinear of a deferred op: the group lowered; of a DequantizeLinear of the same quantization: its
  // integers.
  constexpr bool quantize(const operands& q, std::int32_t result) {
    if (q.count < 2 || q.id[0] < 0) return false;
    const std::int32_t v = q.id[0];
    if (deferred_binary(v)) {
      if (lower_binary(v, q, result)) return true;
      return float_op(v), false;
    }
    if (deferred_pool(v)) {
      if (lower_pool(v, q, result)) return true;
      return float_op(v), false;
    }
    if (deferred(v) && s.at(v).deferred_op.length > 0) return lower(v, q, result), true;
    if (!dequantized_activation(v) || !one_value(q.id[1]) || (q.count > 2 && q.id[2] >= 0 && !one_value(q.id[2])))
      return false;
    const dequantized_from& d = s.at(v).dq;
    quantized_ops<S> ops{s};
    const operands dq_operands = quantization_operands(d.source, d.scale, d.zero_point);
    const operands q_operands = quantization_operands(v, q.id[1], q.count > 2 ? q.id[2] : -1);
    const float dq_scale = ops.scalar_scale(dq_operands, 1), q_scale = ops.scalar_scale(q_operands, 1);
    const auto dq_zero_point = ops.scalar_zero_point(dq_operands, 2, dtype::u8);
    const auto q_zero_point = ops.scalar_zero_point(q_operands, 2, dtype::u8);
    if (s.failed() || dq_scale != q_scale) return s.failed();
    if (dq_zero_point.value != q_zero_point.value || dq_zero_point.type != q_zero_point.type)
      return requantize(d.source, q_scale, q_zero_point.value, q_zero_point.type, result);
    const value& integers = s.at(d.source);
    value& r = s.at(result);
    r.onnx_layout = integers.onnx_layout;
    r.nhwc = integers.nhwc;
    r.one_d = integers.one_d;
    ++s.qdq_lowered;
    return true;
  }

  // QuantizeLinear of a DequantizeLinear of the same scale into another zero point or 8-bit type (the int8
  // input of a uint8 graph, its uint8 result read as int8): an integer requantization of `source`, y =
  // saturate(x - x_zero_point + y_zero_point). onnxruntime computes it in float, round((x - x_zp) * s / s)
  // + y_zp: (x - x_zp) * s / s is within 2^-22 relative of the integer x - x_zp (|x - x_zp| < 512), so the
  // round gives it exactly; the quantize kernel's multiplier s / s = 1 (2^30, shift 1) is exact too.
  constexpr bool requantize(std::int32_t source, float scale, std::int32_t zero_point, dtype type, std::int32_t result) {
    const bool nhwc = prefers_nhwc(s, source);
    const std::int32_t x = nhwc ? as_nhwc(s, source, 0) : as_onnx(s, source, 0);
    if (x < 0 || s.failed()) return true;
    op_attributes a{};
    a.out_type = type;
    a.axis = -1;
    const std::int32_t y = s.add_node(op_kind::quantize, a, {x}, s.label_of(result));
    if (y < 0) return true;
    s.m.tensor_at(y).quant = quantization{scale, zero_point};
    define(s, result, y, nhwc);
    ++s.qdq_lowered;
    return true;
  }

  // A data-movement op (or MaxPool) of a DequantizeLinear: the op on the integers, then the DequantizeLinear.
  constexpr bool commute(const node_view& n, const operands& o, std::int32_t result) {
    if (o.count < 1 || !dequantized_activation(o.id[0])) return false;
    operands others = o;  // (shapes, axes: a deferred one is settled, so that the row refuses it cleanly)
    others.id[0] = -1;
    if (settle(others)) return true;
    const std::int32_t row = find_op<S>(n.type);
    const dequantized_from d = s.at(o.id[0]).dq;
    const std::int32_t integers = s.hidden_value(result);
    if (row < 0 || integers < 0) return true;
    operands moved = o;
    moved.id[0] = d.source;
    op_table<S>[row].import(s, n, moved, integers);
    if (s.failed()) return true;
    const node_view dq_node = s.f.read_node(d.node);
    if (s.take_reader_error()) return true;
    // The DequantizeLinear's import, as that node (its diagnostics are its own).
    const op_type current = s.current;
    s.current = op_type::DequantizeLinear;
    quantized_ops<S>{s}.linear(dq_node, quantization_operands(integers, d.scale, d.zero_point), result, false);
    s.current = current;
    s.at(result).dq = dequantized_from{integers, d.scale, d.zero_point, d.node};
    ++s.qdq_lowered;
    return true;
  }

  // Relu or Clip of a deferred op's result: deferred with it, its bounds kept for the lowering (apply_clamp).
  constexpr bool clamp(const node_view& n, const operands& o, std::int32_t result) {
    if (o.count < 1 || !deferred(o.id[0]) || s.at(o.id[0]).deferred_op.length == 0 || deferred_float_op(o.id[0])) return false;
    float low = 0.0f, high = float_max;
    if (n.type == op_type::Clip && !clip_bounds(s, n, o, low, high)) return true;
    const value& op = s.at(o.id[0]);
    value& r = s.at(result);
    r.kind = value_kind::qdq_deferred;
    r.deferred_op = op.deferred_op;
    r.deferred_index = op.deferred_index;
    r.clamp_low = op.clamp_low > low ? op.clamp_low : low;
    r.clamp_high = op.clamp_high < high ? op.clamp_high : high;
    return true;
  }

  // The operands of a node that does not lower a group: a DequantizeLinear of an 8-bit constant becomes a
  // dequantize node over the stored integers (a float op's quantized constant operand: Add, Mul, ...); any
  // other deferred value is refused. True after a diagnostic.
  constexpr bool settle(const operands& o) {
    for (std::uint32_t k = 0; k < o.count && !s.failed(); ++k) {
      if (!deferred(o.id[k])) continue;
      if (deferred_float_op(o.id[k])) {
        float_op(o.id[k]);
        continue;
      }
      if (!dequantized_constant(o.id[k])) return s.qdq_error(k), true;
      materialize(o.id[k]);
    }
    return s.failed();
  }
  constexpr void materialize(std::int32_t v) {
    const dequantized_from d = s.at(v).dq;
    const node_view dq_node = s.f.read_node(d.node);
    if (s.take_reader_error()) return;
    s.at(v).kind = value_kind::node_output;
    const op_type current = s.current;
    s.current = op_type::DequantizeLinear;
    quantized_ops<S>{s}.linear(dq_node, quantization_operands(d.source, d.scale, d.zero_point), v, false);
    s.current = current;
  }

  // A deferred pool or Add imported as the float op after all (its row, as that node), over its
  // DequantizeLinears.
  constexpr void float_op(std::int32_t v) {
    if (!deferred_float_op(v)) return;
    const node_view op = s.f.read_node(s.at(v).deferred_op);
    if (s.take_reader_error()) return;
    const operands o = read_operands(s, op);
    const std::int32_t row = find_op<S>(op.type);
    if (s.failed() || row < 0) return;
    value& r = s.at(v);
    r.kind = value_kind::node_output;
    const std::int32_t node_index = s.node_index;
    const op_type current = s.current;
    const op_kind current_kind = s.current_kind;
    s.node_index = r.deferred_index;
    s.current = op.type;
    s.current_kind = op_table<S>[row].kind;
    r.deferred_op = {};
    op_table<S>[row].import(s, op, o, v);
    s.node_index = node_index;
    s.current = current;
    s.current_kind = current_kind;
  }

  // `import` run as the deferred node of value `pending` (its index, type and row in diagnostics); the current node
  // restored after. `pending` (the float op's result) stays deferred: another reader of it (a second consumer, a
  // graph output) gets the float op (float_op), as onnxruntime runs a group whose op has other consumers.
  template <class Import>
  constexpr void import_as_deferred(std::int32_t pending, op_type type, op_kind kind, Import import) {
    const std::int32_t node_index = s.node_index;
    const op_type current = s.current;
    const op_kind current_kind = s.current_kind;
    const protobuf::span op = s.at(pending).deferred_op;
    s.node_index = s.at(pending).deferred_index;
    s.current = type;
    s.current_kind = kind;
    s.at(pending).kind = value_kind::node_output;
    s.at(pending).deferred_op = {};
    import();
    s.at(pending).kind = value_kind::qdq_deferred;
    s.at(pending).deferred_op = op;
    s.node_index = node_index;
    s.current = current;
    s.current_kind = current_kind;
  }

  // DequantizeLinear -> GlobalAveragePool -> QuantizeLinear, as onnxruntime's QDQ transformers fuse it
  // (com.microsoft QLinearGlobalAveragePool): the integer pool over the 8-bit activation into the same
  // 8-bit type, per-tensor scales and zero points; kernel::reference::onnx_quant::global_average_pool
  // computes onnxruntime's arithmetic (MLAS's QLinearGlobalAveragePool): acc = sum(x) - x_zp * H * W,
  // y = saturate(round_half_even(float(acc) * (x_scale / (y_scale * float(H * W)))) + y_zp), bit-exact.
  // False (the float pool then) where onnxruntime refuses the fusion's kernel: another type, a multiplier
  // outside [2^-32, 256) or an image of 2^24 pixels or more.
  // DequantizeLinear -> AveragePool -> QuantizeLinear: onnxruntime's QLinearAveragePool (lower_window_pool),
  // which runs a window over the whole image without pads as QLinearGlobalAveragePool (the above; a 1-D
  // one stays the float pool, within 1 LSB).
  constexpr bool lower_pool(std::int32_t pending, const operands& q, std::int32_t result) {
    if (q.count < 2 || !one_value(q.id[1]) || (q.count > 2 && q.id[2] >= 0 && !one_value(q.id[2]))) return false;
    const node_view op = s.f.read_node(s.at(pending).deferred_op);
    if (s.take_reader_error()) return false;
    const operands o = read_operands(s, op);
    if (s.failed() || !dequantized_activation(o.id[0])) return false;
    const dequantized_from x = s.at(o.id[0]).dq;
    quantized_ops<S> ops{s};
    const operands x_operands = quantization_operands(x.source, x.scale, x.zero_point);
    const operands y_operands = quantization_operands(pending, q.id[1], q.count > 2 ? q.id[2] : -1);
    const float x_scale = ops.scalar_scale(x_operands, 1), y_scale = ops.scalar_scale(y_operands, 1);
    const auto x_zero_point = ops.scalar_zero_point(x_operands, 2, dtype::u8);
    const auto y_zero_point = ops.scalar_zero_point(y_operands, 2, dtype::u8);
    const shape xs = onnx_shape(s, x.source);
    if (s.failed() || x_zero_point.type != y_zero_point.type || (xs.rank != 4 && xs.rank != 3)) return false;
    if (op.type == op_type::AveragePool) {
      const pool_window w = window_of(op, xs);
      if (s.failed() || !w.read) return false;
      if (!w.whole_image) return lower_window_pool(pending, op, o, x, x_scale, y_scale, x_zero_point.value, y_zero_point.value, w, result);
    }
    if (xs.rank != 4) return false;
    const std::int64_t pixels = static_cast<std::int64_t>(xs[2]) * xs[3];
    if (pixels <= 0 || pixels >= 0x1000000) return false;
    const float multiplier = x_scale / (y_scale * static_cast<float>(pixels));
    if (!(multiplier >= 0x1p-32f && multiplier < 256.0f)) return false;
    import_as_deferred(pending, op_type::GlobalAveragePool, op_kind::global_avg_pool,
                       [&] { unary_of(s, x.source, result, op_kind::global_avg_pool, true); });
    if (s.failed() || s.at(result).nhwc < 0) return true;
    s.m.tensor_at(s.at(result).nhwc).quant = quantization{y_scale, y_zero_point.value};
    ++s.qdq_lowered;
    return true;
  }

  // An AveragePool's window as import_pool reads it (pads resolved), and what decides its lowering.
  struct pool_window {
    bool read = false;
    window win{};
    bool whole_image = false;  // the window is the image, no pads: onnxruntime's QLinearGlobalAveragePool
    bool ceil_mode = false, count_include_pad = false;
  };
  constexpr pool_window window_of(const node_view& op, const shape& xs) {
    pool_window w{};
    const std::uint32_t spatial = static_cast<std::uint32_t>(xs.rank - 2);
    const shape in = spatial == 1 ? make_shape(xs[0], 1, xs[2], xs[1]) : make_shape(xs[0], xs[2], xs[3], xs[1]);
    std::array<std::int64_t, 4> kernel{};
    if (!ints_attribute(s, op, "kernel_shape", attribute::kernel_shape, spatial, -1, kernel)) return w;
    if (spatial == 1) kernel = {1, kernel[0], 0, 0};
    if (!read_window(s, op, in, kernel[0], kernel[1], w.win, spatial)) return w;
    w.ceil_mode = int_attribute(s, op, "ceil_mode", 0) != 0;
    w.count_include_pad = int_attribute(s, op, "count_include_pad", 0) != 0;
    if (s.take_reader_error()) return w;
    const bool padded = (w.win.pad_top | w.win.pad_left | w.win.pad_bottom | w.win.pad_right) != 0;
    w.whole_image = !padded && w.win.kernel_h == in[1] && w.win.kernel_w == in[2];
    w.read = true;
    return w;
  }

  // DequantizeLinear -> AveragePool -> QuantizeLinear, a window other than the whole image: onnxruntime's
  // QLinearAveragePool, in float (kernel::reference::onnx_quant::average_pool states it): the AveragePool
  // imported on the 8-bit activation (import_pool), its result of y's quantization. count_include_pad pads
  // the input first, here with x's zero point (taps that dequantize to +0.0f: the sums are onnxruntime's), and
  // the window then counts every tap, as onnxruntime does. False (the float pool) for dilations, for
  // count_include_pad with ceil_mode (onnxruntime counts the whole kernel where a window passes the end
  // pads; ctnn's count stops there) and where x_scale / y_scale >= 2^22 (onnxruntime's conversion of the
  // rounded mean to int32 could overflow).
  constexpr bool lower_window_pool(std::int32_t pending, const node_view& op, const operands& o, const dequantized_from& x,
                                   float x_scale, float y_scale, std::int32_t x_zero_point, std::int32_t y_zero_point,
                                   const pool_window& w, std::int32_t result) {
    if (w.win.dilation_h != 1 || w.win.dilation_w != 1 || (w.ceil_mode && w.count_include_pad)) return false;
    if (!(x_scale > 0.0f && y_scale > 0.0f && x_scale / y_scale < 0x1p22f)) return false;
    operands moved = o;
    moved.id[0] = x.source;
    const std::int32_t first_node = s.m.node_count;
    import_as_deferred(pending, op_type::AveragePool, op_kind::avg_pool, [&] { import_pool<S>(s, op, moved, result); });
    if (s.failed() || s.at(result).nhwc < 0) return true;
    // The nodes before the pool move x's integers (a 1-D input's [N, 1, L, C] view, count_include_pad's pad,
    // filled with x's zero point): their results keep x's quantization, which the pool reads.
    for (std::int32_t k = first_node; k < s.m.node_count; ++k) {
      node& n = s.m.node_at(k);
      if (n.kind == op_kind::avg_pool) continue;
      if (n.kind == op_kind::pad) n.attrs.pad.fill_value_bits = std::bit_cast<std::uint32_t>(static_cast<float>(x_zero_point));
      s.m.tensor_at(n.output).quant = s.m.tensor_at(n.inputs[0]).quant;
    }
    s.m.tensor_at(s.at(result).nhwc).quant = quantization{y_scale, y_zero_point};
    ++s.qdq_lowered;
    return true;
  }

  // DequantizeLinear -> Add/Mul <- DequantizeLinear, then QuantizeLinear, as onnxruntime's QDQ transformers fuse it
  // (com.microsoft QLinearAdd, QLinearMul): the add / mul node over the two 8-bit activations (numpy
  // broadcasting) into the same 8-bit type, with the result's scale and zero point;
  // kernel::reference::onnx_quant::add and mul compute onnxruntime's x86-64 arithmetic (their comments state it),
  // bit-exact. An Add whose first operand onnxruntime's broadcaster takes as the scalar (add_swaps_operands) is
  // made with its operands swapped, as onnxruntime calls its kernel. False (the float op then) for operands of
  // other types, shapes that do not broadcast, or (Add) scale ratios of 2^20 or more (whose sums could leave
  // int32, where onnxruntime's conversion gives INT_MIN).
  constexpr bool lower_binary(std::int32_t pending, const operands& q, std::int32_t result) {
    if (q.count < 2 || !one_value(q.id[1]) || (q.count > 2 && q.id[2] >= 0 && !one_value(q.id[2]))) return false;
    const node_view op = s.f.read_node(s.at(pending).deferred_op);
    if (s.take_reader_error()) return false;
    const operands o = read_operands(s, op);
    if (s.failed() || o.count != 2 || !dequantized_activation(o.id[0]) || !dequantized_activation(o.id[1])) return false;
    const bool is_add = op.type == op_type::Add;
    const dequantized_from a = s.at(o.id[0]).dq, b = s.at(o.id[1]).dq;
    quantized_ops<S> ops{s};
    const operands a_operands = quantization_operands(a.source, a.scale, a.zero_point);
    const operands b_operands = quantization_operands(b.source, b.scale, b.zero_point);
    const operands y_operands = quantization_operands(pending, q.id[1], q.count > 2 ? q.id[2] : -1);
    const float a_scale = ops.scalar_scale(a_operands, 1), b_scale = ops.scalar_scale(b_operands, 1);
    const float y_scale = ops.scalar_scale(y_operands, 1);
    const auto a_zero_point = ops.scalar_zero_point(a_operands, 2, dtype::u8);
    const auto b_zero_point = ops.scalar_zero_point(b_operands, 2, dtype::u8);
    const auto y_zero_point = ops.scalar_zero_point(y_operands, 2, dtype::u8);
    const shape as = onnx_shape(s, a.source), bs = onnx_shape(s, b.source);
    shape ys{};
    if (s.failed() || a_zero_point.type != y_zero_point.type || b_zero_point.type != y_zero_point.type ||
        !shape_rules::broadcast(as, bs, ys))
      return false;
    const auto scale_ok = [&](float scale) {
      return scale > 0.0f && scale < float_max && y_scale > 0.0f && y_scale < float_max && (!is_add || scale / y_scale < 0x1p20f);
    };
    if (!scale_ok(a_scale) || !scale_ok(b_scale)) return false;
    // Each operand's tensor holds that quantization (not another DequantizeLinear's of the same integers).
    const auto holds = [&](std::int32_t v, float scale, std::int32_t zero_point) {
      const std::int32_t t = s.at(v).onnx_layout >= 0 ? s.at(v).onnx_layout : s.at(v).nhwc;
      return t >= 0 && s.m.tensor_at(t).quant.scale == scale && s.m.tensor_at(t).quant.zero_point == zero_point;
    };
    if (!holds(a.source, a_scale, a_zero_point.value) || !holds(b.source, b_scale, b_zero_point.value)) return false;
    const bool nhwc = as.rank == 4 && bs.rank == 4 && (prefers_nhwc(s, a.source) || prefers_nhwc(s, b.source));
    const bool swapped = is_add && add_swaps_operands(as, ys);
    std::int32_t xa = -1, xb = -1, y = -1;
    const op_kind kind = is_add ? op_kind::add : op_kind::mul;
    import_as_deferred(pending, op.type, kind, [&] {
      xa = nhwc ? as_nhwc(s, a.source, 0) : as_onnx(s, a.source, 0);
      xb = nhwc ? as_nhwc(s, b.source, 1) : as_onnx(s, b.source, 1);
      if (xa < 0 || xb < 0) return;
      y = swapped ? s.add_node(kind, {}, {xb, xa}, s.label_of(result)) : s.add_node(kind, {}, {xa, xb}, s.label_of(result));
    });
    if (s.failed() || y < 0) return true;
    // The operands' quantization is their DequantizeLinear's (a transposed copy made here has none yet).
    s.m.tensor_at(xa).quant = quantization{a_scale, a_zero_point.value};
    s.m.tensor_at(xb).quant = quantization{b_scale, b_zero_point.value};
    s.m.tensor_at(y).quant = quantization{y_scale, y_zero_point.value};
    define(s, result, y, nhwc);
    ++s.qdq_lowered;
    return true;
  }

  // Whether onnxruntime's broadcaster calls QLinearAdd's kernel with the operands swapped: when it takes the first
  // operand (shape `a`, ONNX's) as the scalar of each span, i.e. the first is broadcast along the innermost dim of
  // the result (`y`) longer than 1, or the result has one element (measured on onnxruntime 1.30: its
  // "input0 scalar" functor passes the second operand as MLAS's first; docs/frontends.md).
  static constexpr bool add_swaps_operands(const shape& a, const shape& y) {
    for (std::int32_t d = y.rank - 1; d >= 0; --d) {
      if (y[d] == 1) continue;
      const std::int32_t ad = a.rank - y.rank + d;
      return ad < 0 || a[ad] == 1;
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Lowering a deferred op at its QuantizeLinear `q`, into value `result`.

  static constexpr operands quantization_operands(std::int32_t x, std::int32_t scale, std::int32_t zero_point) {
    operands o{};
    o.id[0] = x, o.id[1] = scale, o.id[2] = zero_point;
    o.count = 3;
    return o;
  }

  // As the float op's node: its diagnostics name it (operands numbered as in QLinearConv / QLinearMatMul
  // where those ops' import reports them: x 0, w 3, y_scale 6, y_zero_point 7, B 8).
  constexpr void lower(std::int32_t pending, const operands& q, std::int32_t result) {
    const node_view op = s.f.read_node(s.at(pending).deferred_op);
    const protobuf::span label = op.name.length > 0 ? op.name : s.f.output_name(op, 0);
    if (s.take_reader_error()) return;
    const std::int32_t node_index = s.node_index;
    const op_type current = s.current;
    const op_kind current_kind = s.current_kind;
    const name op_label = s.op_label;
    s.node_index = s.at(pending).deferred_index;
    s.current = op.type;
    s.current_kind = op.type == op_type::Conv ? op_kind::conv2d : op_kind::dense;
    s.op_label = name{s.f.reader().view(label)};
    lower_as_op(op, q, result);
    s.node_index = node_index;
    s.current = current;
    s.current_kind = current_kind;
    s.op_label = op_label;
    if (!s.failed()) apply_clamp(s.at(pending), q, result);
  }

  // A Relu or Clip between the op and its QuantizeLinear (as the QuantizeLinear's node): nothing where the
  // result's saturation implies the bounds (onnxruntime's ReluQuantFusion/ClipQuantFusion drop them then);
  // else a lower bound 0 (Relu) is max(y, y_zero_point), an integer Max; other bounds are refused.
  constexpr void apply_clamp(const value& pending, const operands& q, std::int32_t result) {
    if (pending.clamp_low <= -float_max && pending.clamp_high >= float_max) return;
    const bool nhwc = s.at(result).onnx_layout < 0;  // a 2-D conv's result is held in NHWC
    const std::int32_t y = nhwc ? s.at(result).nhwc : s.at(result).onnx_layout;
    const quantization yq = s.m.tensor_at(y).quant;
    const bool is_u8 = s.m.tensor_at(y).type == dtype::u8;
    const float lowest = static_cast<float>((is_u8 ? 0 : -128) - yq.zero_point) * yq.scale;
    const float highest = static_cast<float>((is_u8 ? 255 : 127) - yq.zero_point) * yq.scale;
    if (pending.clamp_high < highest) return s.qdq_error(0);
    if (pending.clamp_low <= lowest) return;
    if (pending.clamp_low != 0.0f || q.count < 3 || q.id[2] < 0) return s.qdq_error(0);
    quantized_ops<S> ops{s};
    const std::int32_t zero_point = ops.stored_constant(q.id[2], 2, ops.constant_of(q.id[2], 2, data_type::uint8, true));
    const std::int32_t clamped = s.add_node(op_kind::maximum, {}, {y, zero_point}, s.label_of(result));
    if (clamped < 0) return;
    s.m.tensor_at(clamped).quant = yq;
    s.at(result).onnx_layout = s.at(result).nhwc = -1;
    define(s, result, clamped, nhwc);
  }

  constexpr void lower_as_op(const node_view& op, const operands& q, std::int32_t result) {
    const operands o = read_operands(s, op);
    if (s.failed()) return;
    const dequantized_from& x = s.at(o.id[0]).dq;
    const dequantized_from& w = s.at(o.id[1]).dq;
    const bool has_bias = o.count > 2 && o.id[2] >= 0;
    // QLinearConv's operands: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B (QLinearMatMul: the first 8).
    operands l{};
    l.id = {x.source, x.scale, x.zero_point, w.source, w.scale, w.zero_point, q.id[1], q.count > 2 ? q.id[2] : -1,
            has_bias ? s.at(o.id[2]).dq.source : -1};
    l.count = 9;
    const std::int64_t trans_b = op.type == op_type::Gemm ? int_attribute(s, op, "transB", 0) : 0;
    const bool by_conv = op.type == op_type::Conv || trans_b != 0;
    if (op.type == op_type::Gemm && !gemm_supported(op, has_bias && !by_conv)) return;
    const shape ws = s.constant_shape(w.source);
    // Per-channel weights must be per output channel: Conv's and B^T's dim 0, B's last dim.
    if (!weights_axis_ok(w, ws.rank, by_conv ? 0 : ws.rank - 1)) return s.qdq_error(1);
    if (has_bias && !bias_ok(x, w, s.at(o.id[2]).dq)) return s.qdq_error(2);
    if (s.failed()) return;
    ++s.qdq_lowered;
    quantized_ops<S> ops{s};
    if (op.type == op_type::Conv) return ops.conv(op, l, result, true);
    if (!by_conv) return l.count = 8, ops.matmul(l, result, true);
    // Gemm, B [N, K]: the 1x1 conv of [M, K, 1, 1] by [N, K, 1, 1], its [M, N, 1, 1] read as [M, N] (views).
    const std::int32_t a = ops.activation(l, 0);
    if (a < 0) return;
    const shape as = s.m.tensor_at(a).dims;
    tensor_view wt = ops.constant_of(w.source, 3, data_type::uint8, true);
    if (s.failed()) return;
    if (as.rank != 2) return s.rank_error(0, as);
    if (wt.dims.rank != 2 || wt.dims[1] != as[1]) return s.operand_error(1);
    wt.dims = make_shape(wt.dims[0], wt.dims[1], 1, 1);
    const std::int32_t image = s.reshape(a, make_shape(as[0], as[1], 1, 1), s.label_of(x.source));
    if (image < 0) return;
    op_attributes attrs{};
    attrs.win.kernel_h = attrs.win.kernel_w = attrs.win.stride_h = attrs.win.stride_w = 1;
    attrs.win.dilation_h = attrs.win.dilation_w = 1;
    attrs.win.mode = padding::explicit_pads;
    attrs.layout = data_layout::onnx;
    attrs.groups = 1;
    attrs.units = wt.dims[0];
    ops.operands_of_weights(l, result, image, attrs, true, 3, wt, wt.dims[0], op_kind::conv2d, 8);
    if (s.failed()) return;
    const std::int32_t product = s.at(result).onnx_layout;
    const quantization yq = s.m.tensor_at(product).quant;
    const std::int32_t y = s.reshape(product, make_shape(as[0], wt.dims[0]), s.label_of(result));
    if (y >= 0) s.m.tensor_at(y).quant = yq;
    s.at(result).onnx_layout = -1;
    define(s, result, y, false);
  }

  // Gemm's attributes the integer ops compute: alpha = beta = 1, transA = 0; with B [K, N] no C (the dense
  // kernel adds none).
  constexpr bool gemm_supported(const node_view& op, bool unsupported_bias) {
    const float alpha = float_attribute(s, op, "alpha", 1.0f), beta = float_attribute(s, op, "beta", 1.0f);
    const std::int64_t trans_a = int_attribute(s, op, "transA", 0);
    if (s.take_reader_error()) return false;
    if (trans_a != 0) return s.attribute_error(attribute::transA, trans_a), false;
    if (alpha != 1.0f) return s.attribute_error(attribute::alpha, millionths(alpha)), false;
    if (beta != 1.0f) return s.attribute_error(attribute::beta, millionths(beta)), false;
    if (unsupported_bias) return s.qdq_error(2), false;
    return true;
  }

  // The DequantizeLinear of the weights: per tensor, or along `axis` of a rank-`rank` tensor.
  constexpr bool weights_axis_ok(const dequantized_from& w, std::int32_t rank, std::int32_t axis) {
    if (s.constant_shape(w.scale).elements() == 1) return true;
    const node_view dq = s.f.read_node(w.node);
    std::int64_t given = dq.proto.length > 0 ? int_attribute(s, dq, "axis", 1) : 1;
    if (s.take_reader_error()) return false;
    if (given < 0) given += rank;
    return given == axis;
  }

  // The bias: zero point 0 (or none), scale x_scale * w_scale per channel (the accumulator's scale).
  constexpr bool bias_ok(const dequantized_from& x, const dequantized_from& w, const dequantized_from& b) {
    quantized_ops<S> ops{s};
    if (!s.is_constant(b.scale) || (b.zero_point >= 0 && !s.is_constant(b.zero_point)) || !s.is_constant(w.scale) ||
        !one_value(x.scale))
      return false;
    const tensor_view bs = ops.constant_of(b.scale, 1, data_type::float32);
    const tensor_view wsc = ops.constant_of(w.scale, 1, data_type::float32);
    const float x_scale = ops.float_at(ops.constant_of(x.scale, 1, data_type::float32), 0);
    if (s.failed()) return false;
    if (b.zero_point >= 0) {
      const tensor_view bz = ops.constant_of(b.zero_point, 2, data_type::int32);
      if (s.failed()) return false;
      for (std::int64_t k = 0; k < bz.dims.elements(); ++k)
        if (ops.integer_at(bz, static_cast<std::uint32_t>(k)) != 0) return false;
    }
    // A bias of zeros is zero at any scale (torch's Identity of an equal zero bias, which onnxruntime's
    // quantizer quantizes once, with the first reader's scale).
    const tensor_view bias = s.f.read_tensor(s.at(b.source).proto);
    if (s.take_reader_error()) return false;
    // Only a bias whose bytes are all there (a file's dims may claim billions of elements: fuzz finding).
    bool zeros = bias.type == data_type::int32 && bias.data_field == schema::tensor::raw_data && !bias.external && !bias.segmented &&
                 static_cast<std::int64_t>(bias.data.length) == bias.dims.elements() * 4;
    for (std::int64_t k = 0; k < bias.dims.elements() && zeros && !s.failed(); ++k)
      zeros = ops.integer_at(bias, static_cast<std::uint32_t>(k)) == 0;
    if (s.failed()) return false;
    if (zeros) return true;
    const std::int64_t channels = bs.dims.elements() > wsc.dims.elements() ? bs.dims.elements() : wsc.dims.elements();
    if ((bs.dims.elements() != 1 && bs.dims.elements() != channels) || (wsc.dims.elements() != 1 && wsc.dims.elements() != channels))
      return false;
    for (std::int64_t k = 0; k < channels && !s.failed(); ++k) {
      const auto at = [&](const tensor_view& t) { return static_cast<std::uint32_t>(t.dims.elements() == 1 ? 0 : k); };
      const float expected = x_scale * ops.float_at(wsc, at(wsc)), given = ops.float_at(bs, at(bs));
      const float difference = expected > given ? expected - given : given - expected;
      if (!(difference <= expected * 0x1p-20f)) return false;
    }
    return !s.failed();
  }
};

// Removes the nodes whose result nothing reads (the dequantize nodes a lowered group left), last first, so
// that what only they read goes too. Their tensors stay, unread (as fuse_ops leaves the ones it bypasses).
template <class Module>
constexpr void erase_unread_nodes(Module& m) {
  std::array<std::int32_t, Module::tensor_capacity> uses{};
  for (std::int32_t i = 0; i < m.node_count; ++i)
    for (std::int32_t k = 0; k < m.node_at(i).input_count; ++k)
      if (const std::int32_t t = m.node_at(i).inputs[static_cast<std::size_t>(k)]; t >= 0) ++uses[static_cast<std::size_t>(t)];
  for (std::int32_t o = 0; o < m.output_count; ++o) ++uses[static_cast<std::size_t>(m.outputs[static_cast<std::size_t>(o)])];
  std::array<bool, Module::node_capacity> erased{};
  for (std::int32_t i = m.node_count - 1; i >= 0; --i) {
    const node& n = m.node_at(i);
    if (uses[static_cast<std::size_t>(n.output)] > 0) continue;
    erased[static_cast<std::size_t>(i)] = true;
    for (std::int32_t k = 0; k < n.input_count; ++k)
      if (const std::int32_t t = n.inputs[static_cast<std::size_t>(k)]; t >= 0) --uses[static_cast<std::size_t>(t)];
  }
  std::int32_t kept = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i)
    if (!erased[static_cast<std::size_t>(i)]) m.nodes[static_cast<std::size_t>(kept++)] = m.node_at(i);
  for (std::int32_t i = kept; i < m.node_count; ++i) m.nodes[static_cast<std::size_t>(i)] = node{};
  m.node_count = kept;
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).role != tensor_role::constant) m.tensor_at(t).producer = -1;
  for (std::int32_t i = 0; i < m.node_count; ++i) m.tensor_at(m.node_at(i).output).producer = i;
}

}  // namespace ctnn::onnx::detail
