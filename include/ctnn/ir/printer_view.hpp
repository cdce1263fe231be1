#pragma once
// The printers' input (print/printer.hpp): a capacity-free view of a module and a type-erased sink, so that
// a translation unit compiles the printers once, however many module types it prints.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/enum_names.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn::detail {

// What the printers read of a module, without its capacities: the printers are plain inline functions
// compiled once per translation unit, not once per module type (compile time, and flash when firmware
// prints several models).
struct module_view {
  const name& model_name;
  const tensor* tensors;
  std::int32_t tensor_count;
  const node* nodes;
  std::int32_t node_count;
  const std::int32_t* inputs;
  std::int32_t input_count;
  const std::int32_t* outputs;
  std::int32_t output_count;
  std::uint32_t facts;
  const diagnostic& error;
  const constant_recipe* recipes;
  std::int32_t recipe_count;
  const kernel_call* calls;
  std::int32_t call_count;
  const std::int32_t* kernel_first_call;  // module::kernel_first_call (kernel(k))
  std::int32_t kernel_count;
  const function_info* functions;
  const executor_info& metadata;
  const memory::pool_allocation* allocations;
  std::int64_t arena_bytes;
  std::int32_t arena_alignment;
  std::int64_t liveness_lower_bound;
  std::int64_t state_bytes;  // the state memory (module_graph::state_bytes)
  std::int32_t peak_node;
  // The plan's pools and per-call scratch (plan_memory; docs/memory.md).
  const memory::pool_info* pools;
  std::int32_t pool_count;
  const memory::pool_usage* pool_usage;
  const memory::pool_allocation* scratch;  // per call
  const std::int64_t* scratch_bytes;       // per call

  constexpr bool has(fact f) const { return (facts & static_cast<std::uint32_t>(f)) != 0; }
  constexpr const tensor& tensor_at(std::int32_t id) const { return tensors[id]; }
  constexpr const node& node_at(std::int32_t id) const { return nodes[id]; }
  constexpr const kernel_params& kernel(std::int32_t k) const { return calls[kernel_first_call[k]].params; }
  constexpr bool valid_tensor(std::int32_t id) const { return id >= 0 && id < tensor_count; }
  constexpr bool valid_node(std::int32_t id) const { return id >= 0 && id < node_count; }
  // As module::storage_root (a view's storage is its root's), safe on malformed ids.
  constexpr std::int32_t storage_root(std::int32_t id) const {
    for (std::int32_t steps = 0; valid_tensor(id) && tensor_at(id).alias_of >= 0 && steps < tensor_count; ++steps)
      id = tensor_at(id).alias_of;
    return id;
  }
};

template <class Module>
constexpr module_view view_of(const Module& m) {
  return {.model_name = m.model_name,
          .tensors = m.tensors.data(),
          .tensor_count = m.tensor_count,
          .nodes = m.nodes.data(),
          .node_count = m.node_count,
          .inputs = m.inputs.data(),
          .input_count = m.input_count,
          .outputs = m.outputs.data(),
          .output_count = m.output_count,
          .facts = m.facts,
          .error = m.error,
          .recipes = m.recipes.data(),
          .recipe_count = m.recipe_count,
          .calls = m.calls.data(),
          .call_count = m.call_count,
          .kernel_first_call = m.kernel_first_call.data(),
          .kernel_count = m.kernel_count,
          .functions = m.functions.data(),
          .metadata = m.metadata,
          .allocations = m.allocations.data(),
          .arena_bytes = m.arena_bytes(),
          .arena_alignment = m.arena_alignment,
          .liveness_lower_bound = m.liveness_lower_bound,
          .state_bytes = m.state_bytes(),
          .peak_node = m.peak_node,
          .pools = m.pools.data(),
          .pool_count = m.pool_count,
          .pool_usage = m.pool_usage.data(),
          .scratch = m.scratch.data(),
          .scratch_bytes = m.scratch_bytes.data()};
}

// The ops that read a tensor's storage: its first use is the op that writes it, its last use the last
// op that reads it or a view of it (as plan_memory computes lifetimes, in op order).
struct tensor_lifetime {
  std::int32_t first_use = -1;
  std::int32_t last_use = -1;
};
constexpr tensor_lifetime lifetime_of(const module_view& m, std::int32_t tensor_id) {
  const std::int32_t producer = m.tensor_at(tensor_id).producer;
  tensor_lifetime life{producer, producer};
  for (std::int32_t op = 0; op < m.node_count; ++op) {
    const node& n = m.node_at(op);
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
      if (m.valid_tensor(t) && m.storage_root(t) == tensor_id && op > life.last_use) life.last_use = op;
    }
  }
  return life;
}

// Whether any graph op reads the tensor (directly).
constexpr bool read_by_an_op(const module_view& m, std::int32_t tensor_id) {
  for (std::int32_t op = 0; op < m.node_count; ++op) {
    const node& n = m.node_at(op);
    for (std::int32_t k = 0; k < n.input_count; ++k)
      if (n.inputs[static_cast<std::size_t>(k)] == tensor_id) return true;
  }
  return false;
}

// How many calls use a kernel.
constexpr std::int32_t calls_of_kernel(const module_view& m, std::int32_t kernel) {
  std::int32_t count = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) count += m.calls[c].kernel == kernel ? 1 : 0;
  return count;
}

// Whether a tensor's shape is known at this stage (before infer_types only inputs and constants have one).
constexpr bool shape_known(const module_view& m, const tensor& t) {
  return m.has(fact::shapes_inferred) || t.role == tensor_role::input || t.role == tensor_role::constant;
}

// A callable object taking std::string_view, behind one function pointer (the public functions wrap
// whatever sink they are given in a lambda first, so functions and function pointers work too).
class sink_ref {
 public:
  template <class Sink>
    requires(!std::is_same_v<std::remove_cvref_t<Sink>, sink_ref>)
  explicit sink_ref(Sink& sink)
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(sink)))),
        call_([](void* object, std::string_view text) { (*static_cast<Sink*>(object))(text); }) {}
  void operator()(std::string_view text) const { call_(object_, text); }

 private:
  void* object_;
  void (*call_)(void*, std::string_view);
};

}  // namespace ctnn::detail
