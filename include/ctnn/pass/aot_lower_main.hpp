#pragma once
// aot_lower_main: fixes, for every kernel call, where each operand and the result live at run time
// (arena offset, model input/output slot, or constant), so the executor is a flat list of calls.
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::pass {

template <class Module>
constexpr location location_of(const Module& m, std::int32_t tensor_id) {
  if (tensor_id < 0) return {};
  tensor_id = m.storage_root(tensor_id);  // a view lives where its root lives
  const tensor& t = m.tensor_at(tensor_id);
  switch (t.role) {
    case tensor_role::input: return {storage::model_input, t.io_index, 0};
    case tensor_role::output: return {storage::model_output, t.io_index, 0};
    case tensor_role::constant: return {storage::constant, tensor_id, 0};
    case tensor_role::intermediate: return {storage::arena, -1, m.allocations[static_cast<std::size_t>(tensor_id)].offset};
  }
  return {};
}

struct aot_lower_main {
  static constexpr fact requires_facts = fact::memory_planned;
  static constexpr fact establishes = fact::main_lowered;

  template <class Module>
  static constexpr Module run(Module m) {
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      for (std::int32_t i = 0; i < call.operand_count; ++i)
        call.operand_at[static_cast<std::size_t>(i)] = location_of(m, call.operands[static_cast<std::size_t>(i)]);
      call.result_at = location_of(m, call.result);
    }
    m.establish(fact::main_lowered);
    return m;
  }
};

}  // namespace ctnn::pass
