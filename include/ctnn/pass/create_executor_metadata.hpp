#pragma once
// create_executor_metadata: what a caller of the executor needs to know, as typed fields
// (module::metadata): model name, inputs and outputs (names, shapes, dtypes, bytes, quantization), the
// memory pools with their sizes and alignment, and the executor's totals.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::pass {

struct create_executor_metadata {
  static constexpr fact requires_facts = static_cast<fact>(static_cast<std::uint32_t>(fact::memory_planned) |
                                                           static_cast<std::uint32_t>(fact::function_metadata));
  static constexpr fact establishes = fact::executor_metadata;

  template <class Module>
  static constexpr Module run(Module m) {
    executor_info& info = m.metadata;
    info = executor_info{};
    info.model = m.model_name;
    const auto describe = [&m](std::int32_t id) {
      const tensor& t = m.tensor_at(id);
      return io_info{t.label, t.dims, t.type, t.bytes(), 0.0f, 0};
    };
    for (std::int32_t i = 0; i < m.input_count; ++i) info.inputs[static_cast<std::size_t>(i)] = describe(m.inputs[static_cast<std::size_t>(i)]);
    for (std::int32_t o = 0; o < m.output_count; ++o) info.outputs[static_cast<std::size_t>(o)] = describe(m.outputs[static_cast<std::size_t>(o)]);
    info.input_count = m.input_count;
    info.output_count = m.output_count;
    // Constants the kernels read (constants that passes folded away are not in the image).
    std::array<bool, Module::tensor_capacity> read{};
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      const kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      for (std::int32_t k = 0; k < call.operand_count; ++k)
        if (call.operands[static_cast<std::size_t>(k)] >= 0)
          read[static_cast<std::size_t>(m.storage_root(call.operands[static_cast<std::size_t>(k)]))] = true;
    }
    for (std::int32_t t = 0; t < m.tensor_count; ++t) {
      const tensor& c = m.tensor_at(t);
      if (c.role == tensor_role::constant && read[static_cast<std::size_t>(t)]) info.constant_bytes += c.bytes();
    }
    info.pools[0] = memory::pool_info{"arena", m.arena_bytes, m.arena_alignment, false};
    info.pools[1] = memory::pool_info{"constants", info.constant_bytes, 4, true};
    info.pool_count = 2;
    info.alignment = m.arena_alignment;
    info.kernel_count = m.kernel_count;
    info.call_count = m.call_count;
    return m;
  }
};

}  // namespace ctnn::pass
