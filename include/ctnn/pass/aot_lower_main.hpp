#pragma once
// aot_lower_main: fixes, for every kernel call, where each operand and the result live at run time
// (a pool offset, model input/output slot, constant, or the state memory), so the executor is a flat list of calls.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass {

// storage::arena: `index` is the pool (-1 stands for pool 0, the arena), `offset` the byte offset in it.
template <class Module>
constexpr location location_of(const Module& m, std::int32_t tensor_id) {
  if (tensor_id < 0) return {};
  tensor_id = m.storage_root(tensor_id);  // a view lives where its root lives
  const tensor& t = m.tensor_at(tensor_id);
  const memory::pool_allocation& a = m.allocations[static_cast<std::size_t>(tensor_id)];
  const std::int32_t pool = a.pool > 0 ? a.pool : -1;
  switch (t.role) {
    case tensor_role::input:
      if (a.offset >= 0) return {storage::arena, pool, a.offset};  // io_in_arena
      return {storage::model_input, t.io_index, 0};
    case tensor_role::output:
      if (a.offset >= 0) return {storage::arena, pool, a.offset};
      return {storage::model_output, t.io_index, 0};
    case tensor_role::constant: return {storage::constant, tensor_id, 0};
    case tensor_role::state: return {storage::state, tensor_id, m.state_offset(tensor_id)};
    case tensor_role::intermediate: return {storage::arena, pool, a.offset};
  }
  return {};
}

struct aot_lower_main : detail::in_place_pass<aot_lower_main> {
  static constexpr fact requires_facts = fact::memory_planned;
  static constexpr fact establishes = fact::main_lowered;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      for (std::int32_t i = 0; i < call.operand_count; ++i)
        call.operand_at[static_cast<std::size_t>(i)] = location_of(m, call.operands[static_cast<std::size_t>(i)]);
      call.result_at = location_of(m, call.result);
    }
    m.establish(fact::main_lowered);
  }
};

}  // namespace ctnn::pass
