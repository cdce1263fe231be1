#pragma once
// One kernel call of the executor, as code that is a template over the call's values only (its kernel
// parameters and where its operands, result and scratch are), never over the module. g++ computes the
// mangled name of every function it instantiates, inlined or not, and a name that contains a model
// type grows with the model: per-call members of executor<M> made a 400-layer DSL model's compile time
// superlinear (docs/compile_time.md). The executor resolves what depends on the module (constants'
// addresses, packed operands, requantization arrays) into small tables and passes them in.
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::detail {

// Members ordered so that there is no padding (checked below; kernel_params is 4-byte aligned).
struct call_plan {
  std::array<location, max_node_inputs> operand_at{};
  location result_at{};
  std::int64_t scratch_offset = -1;  // in pool scratch_pool; -1: the call has none (module::scratch_bytes)
  std::int64_t operand_count = 0;
  // 4 or 8 bytes, as kernel_params (a multiple of 4 bytes) needs to end on a multiple of 8.
  std::conditional_t<sizeof(kernel_params) % 8 == 0, std::int64_t, std::int32_t> scratch_pool = 0;
  kernel_params params{};
};
static_assert(std::has_unique_object_representations_v<call_plan>,
              "ctnn::detail::call_plan must have no padding bytes (clang 14 template-argument bug).");

// Whether plan_memory placed every call's scratch (module::scratch_bytes, the one per-call figure: a pass
// after planning that reserves more leaves it unplaced).
template <class Module>
constexpr bool scratch_is_placed(const Module& m) {
  for (std::int32_t c = 0; c < m.call_count; ++c)
    if (m.scratch_bytes[static_cast<std::size_t>(c)] > 0 && m.scratch[static_cast<std::size_t>(c)].offset < 0) return false;
  return true;
}

constexpr call_plan plan_of(const kernel_call& call, const memory::pool_allocation& scratch) {
  return {call.operand_at, call.result_at, scratch.offset, call.operand_count, scratch.pool, call.params};
}

// How the executor passes a constant operand to a call's kernel (runtime/packed_operands.hpp): as the
// array that holds it already (a user's array, or values a pass or an importer computed), as its copy out
// of the bytes it is stored in (keyed by its model-file slice, or by the executor's views table when it
// names no file), or re-laid out for the call's kernel (keyed likewise, or by the user's array).
enum class operand_source : std::uint8_t {
  none,
  own_array,
  file_copy,
  table_copy,
  packed_user_array,
  packed_file,
  packed_table
};

// Up to N indices, in increasing order: what a pack expansion over a subset of calls or tensors walks.
template <std::size_t N>
struct index_list {
  std::array<std::size_t, N> at{};
  std::size_t count = 0;
  constexpr void add(std::size_t index) { at[count++] = index; }
};

// Where location L is at run time; `constant`: the constant's address, resolved by the executor; `state`:
// the model's state memory.
template <location L, std::size_t Pools>
[[gnu::always_inline]] inline void* address_of(const std::array<std::byte*, Pools>& pools, const void* const* inputs,
                                               void* const* outputs, const void* constant, std::byte* state) {
  if constexpr (L.where == storage::arena) return pools[L.index > 0 ? static_cast<std::size_t>(L.index) : 0] + L.offset;
  else if constexpr (L.where == storage::state) return state + L.offset;
  else if constexpr (L.where == storage::model_input) return const_cast<void*>(inputs[L.index]);
  else if constexpr (L.where == storage::model_output) return outputs[L.index];
  else if constexpr (L.where == storage::constant) return const_cast<void*>(constant);
  else return nullptr;
}

// Runs the call: `constants[K]` is operand K's address when it is a constant (packed when the kernel
// packs it), `rq` the call's per-channel requantization arrays (empty when it has none), `state` the
// model's state memory (unused by a model without state).
template <call_plan Plan, std::size_t Pools>
void run_planned_call([[maybe_unused]] const std::array<std::byte*, Pools>& pools, [[maybe_unused]] const void* const* inputs,
                      [[maybe_unused]] void* const* outputs, [[maybe_unused]] const void* const* constants,
                      [[maybe_unused]] kernel::requant_arrays rq, [[maybe_unused]] std::byte* state) {
  // in_place 2: the result's bytes are its operands' already (pass::mark_in_place_calls), nothing to run.
  if constexpr (Plan.params.in_place != 2) {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      constexpr bool packed_at_run_time =
          ((Plan.params.choice.packs(static_cast<std::int32_t>(K)) && Plan.operand_at[K].where != storage::none &&
            Plan.operand_at[K].where != storage::constant) || ...);
      static_assert(!packed_at_run_time,
                    "ctnn::executor: the kernel of this call reads an operand re-laid out at compile time (weights), "
                    "but the operand is computed at run time; lower the op so that its weights are a constant.");
      const void* const operands[] = {address_of<Plan.operand_at[K]>(pools, inputs, outputs, constants[K], state)..., nullptr};
      void* const result = address_of<Plan.result_at>(pools, inputs, outputs, nullptr, state);
      if constexpr (Plan.scratch_offset >= 0)
        kernel::invoke<Plan.params>(operands, result, rq,
                                    static_cast<void*>(pools[static_cast<std::size_t>(Plan.scratch_pool)] + Plan.scratch_offset));
      else
        kernel::invoke<Plan.params>(operands, result, rq);
    }(std::make_index_sequence<static_cast<std::size_t>(Plan.operand_count)>{});
  }
}

}  // namespace ctnn::detail
