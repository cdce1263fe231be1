#pragma once
// create_executor_metadata: what a caller of the executor needs to know, as typed fields
// (module::metadata): model name, inputs and outputs (names, shapes, dtypes, bytes, scale and zero point),
// the memory pools (the plan's, by name, with the bytes used, limit and alignment) and the executor's totals.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass {

struct create_executor_metadata : detail::in_place_pass<create_executor_metadata> {
  static constexpr fact requires_facts = static_cast<fact>(static_cast<std::uint32_t>(fact::memory_planned) |
                                                           static_cast<std::uint32_t>(fact::function_metadata));
  static constexpr fact establishes = fact::executor_metadata;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    executor_info& info = m.metadata;
    info = executor_info{};
    info.model = m.model_name;
    const auto describe = [&m](std::int32_t id) {
      const tensor& t = m.tensor_at(id);
      // Per-channel I/O (unusual) reports its first channel's scale, as quantization::scale holds it.
      return io_info{t.label, t.dims, t.type, t.bytes(), t.quant.scale, t.quant.quantized() ? t.quant.zero_point : 0};
    };
    for (std::int32_t i = 0; i < m.input_count; ++i) info.inputs[static_cast<std::size_t>(i)] = describe(m.inputs[static_cast<std::size_t>(i)]);
    for (std::int32_t o = 0; o < m.output_count; ++o) info.outputs[static_cast<std::size_t>(o)] = describe(m.outputs[static_cast<std::size_t>(o)]);
    info.input_count = m.input_count;
    info.output_count = m.output_count;
    info.constant_bytes = detail::constant_bytes_read(m);
    // The plan's pools as planned (plan_memory filled pool_usage; a read-only pool's usage is the constants).
    bool constants_placed = false;
    for (std::int32_t p = 0; p < m.pool_count; ++p) {
      const memory::pool_info& pool = m.pools[static_cast<std::size_t>(p)];
      info.pools[static_cast<std::size_t>(p)] =
          pool_metadata{pool.name, m.pool_usage[static_cast<std::size_t>(p)].bytes, pool.size_limit, pool.alignment, pool.read_only};
      constants_placed = constants_placed || pool.read_only;
    }
    info.pool_count = m.pool_count;
    if (!constants_placed) info.pools[static_cast<std::size_t>(info.pool_count++)] = pool_metadata{"constants", info.constant_bytes, -1, 4, true};
    info.alignment = m.arena_alignment;
    info.kernel_count = m.kernel_count;
    info.call_count = m.call_count;
  }
};

}  // namespace ctnn::pass
