#pragma once
// Runs a compiled module at run time with the shared kernels (docs/design.md §2: the host runner ctnn-run, and
// conformance suites that read many model files without one translation unit each). The module is the
// one ctnn::compile builds, here built at run time: a frontend's import and the same passes, run as
// ordinary functions (tools/run.cpp). What the compiler materialises in .rodata is computed here, once,
// on the heap: constants made by passes (runtime/constants.hpp's recipes) and per-channel
// requantization arrays (runtime/requantization.hpp's); the planned pools are allocated.
//
//   ctnn::kernel::module_runner<decltype(m)> runner{m};   // m: after aot_lower_main
//   if (runner.status() == ctnn::kernel::run_status::ok)
//     runner.run(inputs, outputs);                          // one pointer per model input / output
//
// State tensors (TFLite variable tensors) keep their values from one run() to the next; reset_state()
// restores their initial values.
//
// A host tool: this header allocates (std::vector). Firmware uses ctnn::compile.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include <ctnn/detail/math.hpp>
#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel {

enum class run_status : std::int32_t {
  ok,
  module_failed,        // the module carries a diagnostic (module.error)
  not_lowered,          // the module has not been through aot_lower_main
  unsupported_kernel,   // a call's parameters have no shared kernel (kernel_params_problem; failed_call())
  missing_constant,     // a constant operand has neither data nor a recipe
  wrong_io_count,       // run(): not one pointer per model input and output
};

constexpr const char* name_of(run_status s) {
  switch (s) {
    case run_status::ok: return "ok";
    case run_status::module_failed: return "the module carries a diagnostic";
    case run_status::not_lowered: return "the module has not been through aot_lower_main";
    case run_status::unsupported_kernel: return "a call has no kernel with run-time parameters";
    case run_status::missing_constant: return "a constant operand has no data";
    case run_status::wrong_io_count: return "not one buffer per model input and output";
  }
  return "?";
}

template <class Module>
class module_runner {
 public:
  // Prepares `m` (kept by reference: it must outlive the runner): constants, requantization, pools.
  explicit module_runner(const Module& m) : m_(m), constants_(m.tensors.size()), requantization_(m.calls.size()) {
    if (m.error.failed()) status_ = run_status::module_failed;
    else if (!m.has(fact::main_lowered)) status_ = run_status::not_lowered;
    for (std::int32_t c = 0; c < m.call_count && status_ == run_status::ok; ++c) {
      const kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      if (kernel_params_problem(call.params) != params_problem::none) {
        status_ = run_status::unsupported_kernel;
        failed_call_ = c;
      }
      // A constant operand is read where its location says: the constant that holds its bytes (a view of a
      // constant, e.g. a reshaped weight read as an activation, has none of its own).
      for (std::size_t k = 0; k < static_cast<std::size_t>(call.operand_count) && status_ == run_status::ok; ++k)
        if (call.operand_at[k].where == storage::constant && constant(call.operand_at[k].index) == nullptr) {
          status_ = run_status::missing_constant;
          failed_call_ = c;
        }
      if (status_ == run_status::ok) prepare_requantization(c);
    }
    const std::size_t pools = m.pool_count > 0 ? static_cast<std::size_t>(m.pool_count) : 1;
    for (std::size_t p = 0; p < pools; ++p) {
      const std::int64_t bytes = p == 0 ? m.arena_bytes() : m.pool_usage[p].bytes;
      // 64-byte alignment covers every planned alignment; the pool starts there.
      pools_.emplace_back(static_cast<std::size_t>(bytes > 0 ? bytes : 0) + 64);
    }
    state_.resize(static_cast<std::size_t>(m.state_bytes()) + Module::state_alignment);
    reset_state();
  }

  // The state memory (state tensors, kept between runs) to its initial values, as the executor's: a state tensor's
  // initial data where it has some (a resource variable a CALL_ONCE initialises), else state_fill.
  void reset_state() {
    std::fill(state_.begin(), state_.end(), std::byte{0});
    for (std::int32_t t = 0; t < m_.tensor_count; ++t) {
      const tensor& s = m_.tensor_at(t);
      if (s.role != tensor_role::state) continue;
      if (s.data.bytes != nullptr) std::memcpy(state() + m_.state_offset(t), s.data.bytes, static_cast<std::size_t>(s.bytes()));
      else std::memset(state() + m_.state_offset(t), state_fill(s), static_cast<std::size_t>(s.bytes()));
    }
  }

  run_status status() const { return status_; }
  // The call whose parameters have no shared kernel (status() == unsupported_kernel) or that reads a constant
  // without data (missing_constant), else -1.
  std::int32_t failed_call() const { return failed_call_; }

  // Runs every call. inputs[i] / outputs[o]: the model's input i / output o, as many elements of its type
  // as the tensor has (executor::input<I>::bytes).
  run_status run(std::span<const void* const> inputs, std::span<void* const> outputs) {
    if (status_ != run_status::ok) return status_;
    if (inputs.size() != static_cast<std::size_t>(m_.input_count) || outputs.size() != static_cast<std::size_t>(m_.output_count))
      return run_status::wrong_io_count;
    inputs_ = inputs;
    outputs_ = outputs;
    copy_io_in_pools(true);
    for (std::int32_t c = 0; c < m_.call_count; ++c) {
      const kernel_call& call = m_.calls[static_cast<std::size_t>(c)];
      if (call.params.in_place == 2) continue;  // its result's bytes are its operands' already (mark_in_place_calls)
      std::array<const void*, max_node_inputs> operands{};
      for (std::int32_t k = 0; k < call.operand_count; ++k)
        operands[static_cast<std::size_t>(k)] = address(call.operand_at[static_cast<std::size_t>(k)]);
      invoke_dynamic(call.params, std::span<const void* const>{operands.data(), static_cast<std::size_t>(call.operand_count)},
                     const_cast<void*>(address(call.result_at)), requantization_[static_cast<std::size_t>(c)].arrays);
    }
    copy_io_in_pools(false);
    return run_status::ok;
  }

 private:
  // A call's requantization arrays and their storage.
  struct requantization {
    std::vector<std::int32_t> multiplier, shift, requantize;
    std::vector<float> scale, bias;
    requant_arrays arrays{};
  };

  std::byte* pool(std::int32_t p) {
    std::vector<std::byte>& storage = pools_[static_cast<std::size_t>(p > 0 ? p : 0)];
    const auto misalignment = reinterpret_cast<std::uintptr_t>(storage.data()) % 64;
    return storage.data() + (misalignment == 0 ? 0 : 64 - misalignment);
  }

  std::byte* state() {
    const auto misalignment = reinterpret_cast<std::uintptr_t>(state_.data()) % Module::state_alignment;
    return state_.data() + (misalignment == 0 ? 0 : Module::state_alignment - misalignment);
  }

  const void* address(const location& at) {
    switch (at.where) {
      case storage::arena: return pool(at.index) + at.offset;
      case storage::state: return state() + at.offset;
      case storage::model_input: return inputs_[static_cast<std::size_t>(at.index)];
      case storage::model_output: return outputs_[static_cast<std::size_t>(at.index)];
      case storage::constant: return constant(at.index);
      case storage::none: break;
    }
    return nullptr;
  }

  // Model inputs and outputs the plan put in the pools (ctnn::io_in_arena): copied in before the calls,
  // out after them.
  void copy_io_in_pools(bool in) {
    const std::int32_t count = in ? m_.input_count : m_.output_count;
    for (std::int32_t i = 0; i < count; ++i) {
      const std::int32_t id = in ? m_.inputs[static_cast<std::size_t>(i)] : m_.outputs[static_cast<std::size_t>(i)];
      const memory::pool_allocation& at = m_.allocations[static_cast<std::size_t>(id)];
      if (at.offset < 0) continue;
      const auto bytes = static_cast<std::size_t>(m_.tensor_at(id).bytes());
      auto* placed = pool(at.pool) + at.offset;
      if (in) std::memcpy(placed, inputs_[static_cast<std::size_t>(i)], bytes);
      else std::memcpy(outputs_[static_cast<std::size_t>(i)], placed, bytes);
    }
  }

  // Constant tensor `id`: its stored data (zero-copy), or the values its recipe computes (once).
  const void* constant(std::int32_t id) {
    const tensor& t = m_.tensor_at(id);
    // An empty constant has no values to read (a model file may store none): any address serves.
    static constexpr float no_values[1] = {};
    if (t.dims.elements() == 0) return no_values;
    if (t.recipe < 0) {
      const constant_data& d = t.data;
      return d.f32 != nullptr ? static_cast<const void*>(d.f32)
             : d.i8 != nullptr ? static_cast<const void*>(d.i8)
             : d.i32 != nullptr ? static_cast<const void*>(d.i32)
                                : static_cast<const void*>(d.bytes);
    }
    std::vector<float>& values = constants_[static_cast<std::size_t>(id)];
    if (values.empty() && !materialize(id, values)) return nullptr;
    return values.data();
  }
  const float* constant_f32(std::int32_t id) { return static_cast<const float*>(constant(id)); }

  // runtime/constants.hpp's recipes, at run time: the folded op's kernel on its constant operands, or
  // the folded batch norm's per-channel factor scale / sqrt(variance + epsilon) (the same constexpr sqrt).
  bool materialize(std::int32_t id, std::vector<float>& values) {
    const tensor& t = m_.tensor_at(id);
    const constant_recipe& recipe = m_.recipes[static_cast<std::size_t>(t.recipe)];
    if (t.type == dtype::i8 || t.type == dtype::i32) {
      // fold_constants' integer concatenation: its operands' integers one after the other, kept in floats' room.
      const auto bytes = static_cast<std::size_t>(t.bytes());
      values.assign((bytes + sizeof(float) - 1) / sizeof(float), 0.0f);
      auto* out = reinterpret_cast<unsigned char*>(values.data());
      for (std::int32_t k = 0; k < recipe.operand_count; ++k) {
        const std::int32_t input = recipe.operands[static_cast<std::size_t>(k)];
        const void* part = input >= 0 ? constant(input) : nullptr;
        if (part == nullptr) return false;
        const auto part_bytes = static_cast<std::size_t>(m_.tensor_at(input).bytes());
        std::memcpy(out, part, part_bytes);
        out += part_bytes;
      }
      return true;
    }
    values.assign(static_cast<std::size_t>(t.dims.elements()), 0.0f);
    if (recipe.kind == recipe_kind::evaluate_op) {
      std::array<const void*, max_node_inputs> operands{};
      for (std::int32_t k = 0; k < recipe.operand_count; ++k) {
        const std::int32_t input = recipe.operands[static_cast<std::size_t>(k)];
        if (input >= 0 && (operands[static_cast<std::size_t>(k)] = constant(input)) == nullptr) return false;
      }
      return invoke_dynamic(recipe.params(),
                            std::span<const void* const>{operands.data(), static_cast<std::size_t>(recipe.operand_count)},
                            values.data());
    }
    // The tensor's own stored values, before the recipe (a float array or the model file's bytes).
    std::vector<float> own(values.size());
    if (t.data.f32 != nullptr) std::memcpy(own.data(), t.data.f32, own.size() * sizeof(float));
    else if (t.data.bytes != nullptr) std::memcpy(own.data(), t.data.bytes, own.size() * sizeof(float));
    else return false;
    const float* scale = constant_f32(recipe.operands[1]);
    const float* offset = recipe.own_data_is_offset ? own.data() : constant_f32(recipe.operands[2]);
    const float* mean = constant_f32(recipe.operands[3]);
    const float* variance = constant_f32(recipe.operands[4]);
    if (scale == nullptr || offset == nullptr || mean == nullptr || variance == nullptr) return false;
    const bool weights = recipe.kind == recipe_kind::batch_norm_weights;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto index = static_cast<std::int64_t>(i);
      const auto c = static_cast<std::size_t>(weights ? index / recipe.channel_stride % recipe.channel_count : index);
      const double factor = scale[c] / ctnn::detail::math::sqrt(static_cast<double>(variance[c]) + recipe.epsilon);
      const double bias = recipe.own_data_is_offset ? 0.0 : own[i];
      values[i] = static_cast<float>(weights ? own[i] * factor : (bias - mean[c]) * factor + offset[c]);
    }
    return true;
  }

  // runtime/requantization.hpp's arrays, at run time: per output channel QuantizeMultiplier of
  // input_scale * weight_scale[c] / output_scale; per concat input its float rescaling.
  void prepare_requantization(std::int32_t c) {
    const kernel_call& call = m_.calls[static_cast<std::size_t>(c)];
    const kernel_params& p = call.params;
    requantization& r = requantization_[static_cast<std::size_t>(c)];
    if (call.requantization.table == requantization_table::none) return;  // the recipe decides (compute_requantization)
    const quantization& out = m_.tensor_at(call.result).quant;
    if (call.requantization.table == requantization_table::concat_inputs) {
      for (std::int32_t i = 0; i < p.concat().count; ++i) {
        const auto input = concat_input_requantization_of(m_.tensor_at(call.operands[static_cast<std::size_t>(i)]).quant, out);
        r.scale.push_back(input.scale);
        r.bias.push_back(input.bias);
        r.requantize.push_back(input.requantize);
      }
      r.arrays = {nullptr, nullptr, r.scale.data(), r.bias.data(), r.requantize.data()};
      return;
    }
    const float input_scale = m_.tensor_at(call.operands[0]).quant.scale;
    const quantization& weights = m_.tensor_at(call.operands[1]).quant;
    for (std::int32_t channel = 0; channel < p.out.last(); ++channel) {
      const auto qm = channel_requantization(input_scale, weights, channel, out.scale);
      r.multiplier.push_back(qm.multiplier);
      r.shift.push_back(qm.shift);
    }
    r.arrays = {r.multiplier.data(), r.shift.data(), nullptr, nullptr, nullptr};
  }

  const Module& m_;
  run_status status_ = run_status::ok;
  std::int32_t failed_call_ = -1;
  std::vector<std::vector<float>> constants_;        // per tensor id: recipe values (empty: none yet)
  std::vector<requantization> requantization_;       // per call
  std::vector<std::vector<std::byte>> pools_;
  std::vector<std::byte> state_;  // the state memory, kept between runs (state_alignment bytes of slack)
  std::span<const void* const> inputs_;
  std::span<void* const> outputs_;
};

}  // namespace ctnn::kernel
