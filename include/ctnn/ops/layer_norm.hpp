#pragma once
// layer_norm: each group of elements that share their coordinates outside the axes of attrs.mean.reduce_axes,
// (x - mean) / sqrt(variance + attrs.norm.epsilon()), then times its second operand (the scale) and plus its
// third (the bias) when given, both broadcast to x (numpy's rule): ONNX LayerNormalization (the axes from
// `axis` on), InstanceNormalization (the axes after the channels; scale and bias [C, 1, ...]) and
// MeanVarianceNormalization (its axes, no scale), one op kind for the three. Float32; the mean and the
// (biased) variance in double, as ONNX's reference (NumPy) computes them. The descriptor of op_kind::layer_norm
// (ops/descriptor.hpp).
#include <array>
#include <cmath>
#include <cstdint>

#include <ctnn/detail/math.hpp>
#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/reduce.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct layer_norm : op_defaults {
  static constexpr op_kind kind = op_kind::layer_norm;
  static constexpr operand_range operands{1, 3};
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  // The input's shape; the axes inside its rank; the scale and the bias broadcast to it (to nothing larger).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    if (n.attrs.mean.reduce_axes == 0u || n.attrs.mean.reduce_axes >> in.rank != 0u) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in,
              {.axis = static_cast<std::int64_t>(n.attrs.mean.reduce_axes), .rank_actual = in.rank}});
      return in;
    }
    if (!shape_rules::operands_share_type(m, node_id, n.input_count)) return in;
    for (std::int32_t k = 1; k < n.input_count; ++k) {
      const shape other = m.tensor_at(n.inputs[static_cast<std::size_t>(k)]).dims;
      shape both{};
      if (!shape_rules::broadcast(in, other, both) || both != in) {
        m.fail({error_code::input_shapes_differ, node_id, n.kind, in, other, {.input_slot = k}});
        return in;
      }
    }
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.mean = n.attrs.mean;
    p.norm = n.attrs.norm;
    p.operand_count = n.input_count;
    if (n.input_count > 1) p.in2 = m.tensor_at(n.inputs[1]).dims;
    if (n.input_count > 2) p.in3 = m.tensor_at(n.inputs[2]).dims;
  }
  static constexpr std::size_t operands_read(const kernel_params& p) { return static_cast<std::size_t>(p.operand_count); }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape& out) {
    return 4 * out.elements();  // the mean, the variance, the normalisation, the scale and bias
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_fields(w, a.mean, a.norm);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_fields(w, p.mean, p.norm);
  }
  template <class Writer>
  static void put_fields(Writer& w, const mean_fields& axes, const norm_fields& norm) {
    w.field("  axes mask ", static_cast<std::int64_t>(axes.reduce_axes));
    w.real_field(" epsilon ", static_cast<double>(norm.epsilon()));
  }

  // The strides that read an operand of shape `s` broadcast to `to` (right-aligned; 0 along its extents of 1).
  static constexpr std::array<std::int64_t, max_rank> broadcast_strides(const shape& s, const shape& to) {
    std::array<std::int64_t, max_rank> strides{};
    std::int64_t stride = 1;
    for (std::int32_t d = s.rank - 1; d >= 0; --d) {
      strides[static_cast<std::size_t>(to.rank - s.rank + d)] = s[d] == 1 ? 0 : stride;
      stride *= s[d];
    }
    return strides;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    namespace ref = kernel::reference::detail;
    const float* x = operands[0];
    const ref::reduction_plan plan = ref::plan_reduction(p->in, p->mean.reduce_axes);
    const double epsilon = static_cast<double>(p->norm.epsilon());
    const auto count = static_cast<double>(plan.count);
    // Each group: its mean, its variance, then its elements normalised.
    std::array<std::int64_t, max_rank> kept_index{};
    std::int64_t base = 0;
    for (std::int64_t o = 0; o < plan.outputs; ++o) {
      const auto for_each = [&](auto&& visit) {
        std::array<std::int64_t, max_rank> index{};
        std::int64_t offset = 0;
        for (std::int64_t k = 0; k < plan.count; ++k) {
          visit(base + offset);
          ref::advance_index(index, offset, plan.reduced_stride, plan.reduced_extent, plan.reduced);
        }
      };
      double sum = 0.0;
      for_each([&](std::int64_t at) { sum += static_cast<double>(x[at]); });
      const double mean = sum / count;
      double squares = 0.0;
      for_each([&](std::int64_t at) { squares += (x[at] - mean) * (x[at] - mean); });
      const double variance = squares / count + epsilon;
      const double deviation = ctnn::detail::math::either::sqrt(variance);
      for_each([&](std::int64_t at) { result[at] = ctnn::detail::math::to_float((x[at] - mean) / deviation); });
      ref::advance_index(kept_index, base, plan.kept_stride, plan.kept_extent, plan.kept);
    }
    if (p->operand_count < 2) return;
    // The scale and the bias, broadcast, in x's row-major order.
    const float* scale = operands[1];
    const float* bias = p->operand_count > 2 ? operands[2] : nullptr;
    const std::array<std::int64_t, max_rank> scale_stride = broadcast_strides(p->in2, p->in),
                                             bias_stride = bias != nullptr ? broadcast_strides(p->in3, p->in)
                                                                           : std::array<std::int64_t, max_rank>{};
    std::array<std::int64_t, max_rank> index{};
    std::int64_t at_scale = 0, at_bias = 0;
    const std::int64_t elements = p->in.elements();
    for (std::int64_t i = 0; i < elements; ++i) {
      result[i] = result[i] * scale[at_scale] + (bias != nullptr ? bias[at_bias] : 0.0f);
      for (std::int32_t d = p->in.rank - 1; d >= 0; --d) {
        const auto du = static_cast<std::size_t>(d);
        at_scale += scale_stride[du];
        at_bias += bias_stride[du];
        if (++index[du] < p->in[d]) break;
        at_scale -= scale_stride[du] * p->in[d];
        at_bias -= bias_stride[du] * p->in[d];
        index[du] = 0;
      }
    }
  }
};

}  // namespace ctnn::ops
