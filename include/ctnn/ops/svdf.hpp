#pragma once
// svdf: a singular-value-decomposition filter over time (TFLite SVDF), the stateful layer of keyword spotting
// models. Operands: input [batch, input_size], weights_feature [filters, input_size], weights_time
// [filters, memory], bias [units] (optional), and its activation state [batch, memory * filters], a state
// tensor (tensor_role::state) the kernel updates in place: each run shifts every filter's memory by one step,
// appends the filter's response to the input, and sums each unit's `rank` filters, weighted over time. The
// result is [batch, units], units = filters / attrs.svdf().rank. The descriptor of op_kind::svdf
// (ops/descriptor.hpp).
#include <algorithm>
#include <cstdint>
#include <limits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct svdf : op_defaults {
  static constexpr op_kind kind = op_kind::svdf;
  static constexpr operand_range operands{5, 5};
  static constexpr std::uint32_t state_operands = 1u << 4;
  // Its float32 kernel applies attrs.fused (the file's option), but fuse_ops must not fold a following
  // activation into it: the int8 kernel, as TFLM's, applies none.
  static constexpr bool takes_fused_activation = false;
  // float32; int8 input, weights and output with int16 or int8 state and time weights (TFLM's two forms).
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  // TFLM's Prepare checks: rank-2 input, weights and state of matching extents, filters a multiple of rank.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const shape features = m.tensor_at(n.inputs[1]).dims;
    const shape time = m.tensor_at(n.inputs[2]).dims;
    const shape state = m.tensor_at(n.inputs[4]).dims;
    const std::int32_t rank = n.attrs.svdf().rank;
    const auto fail = [&](std::int32_t slot, const shape& got) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, in, got, {.input_slot = slot}});
      return in;
    };
    if (in.rank != 2) return fail(0, in);
    if (features.rank != 2 || features[1] != in[1] || rank <= 0 || features[0] % rank != 0) return fail(1, features);
    if (time.rank != 2 || time[0] != features[0]) return fail(2, time);
    if (state.rank != 2 || state[0] != in[0] || state[1] != time[1] * features[0]) return fail(4, state);
    const std::int32_t units = features[0] / rank;
    if (n.inputs[3] >= 0) {
      const shape bias = m.tensor_at(n.inputs[3]).dims;
      if (bias.rank != 1 || bias[0] != units) return fail(3, bias);
    }
    shape out{};
    out.rank = 2;
    out.dims[0] = in[0];
    out.dims[1] = units;
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.in3 = m.tensor_at(n.inputs[2]).dims;
    p.has_bias = n.inputs[3] >= 0 ? 1 : 0;
    svdf_fields f = n.attrs.svdf();
    f.state_type = m.tensor_at(n.inputs[4]).type;
    p.set(f);
  }
  static constexpr std::size_t operands_read(const kernel_params&) { return 5; }
  // TFLM's PrepareSvdf (int8): the input times the feature weights to the state's scale, the state times the
  // time weights to the output's, both QuantizeMultiplier of a double made from float products.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    const quantization& features = q.operand[1];
    const quantization& time = q.operand[2];
    const quantization& state = q.operand[4];
    q.set_multiplier(p.input_multiplier, p.input_shift, static_cast<double>(q.in.scale * features.scale / state.scale));
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(state.scale * time.scale / q.out.scale));
    svdf_fields f = p.svdf();
    f.state_offset = ctnn::detail::quant::wrapping_neg(state.zero_point);
    p.set(f);
  }
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) {
    return {recipe.input_shift > recipe.output_shift ? recipe.input_shift : recipe.output_shift, false};
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape& out) {
    const shape features = m.tensor_at(n.inputs[1]).dims;
    const shape time = m.tensor_at(n.inputs[2]).dims;
    return out[0] * features[0] * (features[1] + time[1]);
  }

  // TFLM's EvalFloatSvdfReference: the state shifted one step, each filter's dot product with the input
  // appended, then per unit the bias plus its filters' time-weighted sums (in TFLM's order), activated.
  template <class Params>
  [[gnu::always_inline]] static void run_f32(Params p, const float* const* operands, float* result) {
    const shape_of s = shape_of::read(p);
    const float* input = operands[0];
    const float* features = operands[1];
    const float* time = operands[2];
    const float* bias = operands[3];
    float* state = const_cast<float*>(operands[4]);  // state_operands: writable by construction
    shift_state(state, s);
    for (std::int32_t b = 0; b < s.batch; ++b)
      for (std::int32_t f = 0; f < s.filters; ++f) {
        float dot = 0.0f;
        for (std::int32_t k = 0; k < s.input_size; ++k) dot += features[f * s.input_size + k] * input[b * s.input_size + k];
        state[(b * s.filters + f) * s.memory + s.memory - 1] = dot;
      }
    for (std::int32_t b = 0; b < s.batch; ++b)
      for (std::int32_t u = 0; u < s.units; ++u) {
        float sum = p->has_bias != 0 ? bias[u] : 0.0f;
        for (std::int32_t r = 0; r < s.rank; ++r) {
          const std::int32_t f = u * s.rank + r;
          float filtered = 0.0f;
          for (std::int32_t t = 0; t < s.memory; ++t) filtered += time[f * s.memory + t] * state[(b * s.filters + f) * s.memory + t];
          sum += filtered;
        }
        result[b * s.units + u] = kernel::reference::activate(p->fused, sum);
      }
  }

  // TFLM's EvalIntegerSvdfReference: the int32 dot products of the input (less its zero point) and the feature
  // weights, requantized to the state's type and clamped, appended to the shifted state; per unit, the bias
  // plus its filters' int32 sums of time weight times state (less its zero point), requantized to int8.
  // TFLM's int8 SVDF applies no fused activation; neither does this. Sums wrap as TFLM's int32 ones do on its
  // targets.
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    if (p->svdf().state_type == dtype::i16) run_integer<std::int16_t>(p, operands, static_cast<std::int8_t*>(result));
    else run_integer<std::int8_t>(p, operands, static_cast<std::int8_t*>(result));
  }

 private:
  struct shape_of {
    std::int32_t batch, input_size, filters, memory, rank, units;
    template <class Params>
    static constexpr shape_of read(Params p) {
      return {p->in[0], p->in[1], p->in2[0], p->in3[1], p->svdf().rank, p->out[1]};
    }
  };

  // Every filter's memory one step older: the whole buffer moves one element towards its start (each row's
  // last slot then takes the next row's first, overwritten by the new response).
  template <class T>
  static void shift_state(T* state, const shape_of& s) {
    const std::int64_t count = static_cast<std::int64_t>(s.batch) * s.filters * s.memory;
    for (std::int64_t i = 0; i + 1 < count; ++i) state[i] = state[i + 1];
  }

  template <class State, class Params>
  static void run_integer(Params p, const void* const* operands, std::int8_t* result) {
    namespace q = ctnn::detail::quant;
    const shape_of s = shape_of::read(p);
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    const auto* features = static_cast<const std::int8_t*>(operands[1]);
    const auto* time = static_cast<const State*>(operands[2]);
    const auto* bias = static_cast<const std::int32_t*>(operands[3]);
    auto* state = static_cast<State*>(const_cast<void*>(operands[4]));  // state_operands: writable by construction
    shift_state(state, s);
    constexpr std::int32_t lowest = std::numeric_limits<State>::min(), highest = std::numeric_limits<State>::max();
    const std::int32_t state_offset = p->svdf().state_offset;
    for (std::int32_t b = 0; b < s.batch; ++b)
      for (std::int32_t f = 0; f < s.filters; ++f) {
        std::int32_t dot = 0;
        for (std::int32_t k = 0; k < s.input_size; ++k)
          dot = q::wrapping_add(dot, features[f * s.input_size + k] * (input[b * s.input_size + k] + p->input_offset));
        dot = q::multiply_by_quantized_multiplier(dot, p->input_multiplier, p->input_shift);
        dot = std::min(std::max(lowest, dot), highest);
        state[(b * s.filters + f) * s.memory + s.memory - 1] = static_cast<State>(dot - state_offset);
      }
    for (std::int32_t b = 0; b < s.batch; ++b)
      for (std::int32_t u = 0; u < s.units; ++u) {
        std::int32_t sum = p->has_bias != 0 ? bias[u] : 0;
        for (std::int32_t r = 0; r < s.rank; ++r) {
          const std::int32_t f = u * s.rank + r;
          std::int32_t filtered = 0;
          for (std::int32_t t = 0; t < s.memory; ++t)
            filtered = q::wrapping_add(filtered, time[f * s.memory + t] * (state[(b * s.filters + f) * s.memory + t] + state_offset));
          sum = q::wrapping_add(sum, filtered);
        }
        const std::int32_t scaled = q::multiply_by_quantized_multiplier(sum, p->output_multiplier, p->output_shift) + p->output_offset;
        result[b * s.units + u] = static_cast<std::int8_t>(std::min(std::max(scaled, std::int32_t{-128}), std::int32_t{127}));
      }
  }
};

}  // namespace ctnn::ops
