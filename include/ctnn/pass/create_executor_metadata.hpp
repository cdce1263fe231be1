#pragma once
// create_executor_metadata: what a caller of the executor needs to know, as typed fields
// (module::metadata): model name, inputs and outputs (names, shapes, dtypes, bytes, quantization), the
// memory pools with their sizes and alignment, and the executor's totals.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

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
    info.constant_bytes = detail::constant_bytes_read(m);
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
