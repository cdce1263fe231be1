#pragma once
// Which model inputs are streamed (ctnn::streamed_input; docs/memory.md, "Streamed input"): an input that only
// fetch_rows ops read. It is no buffer: the caller gives a ctnn::row_source in its place and the plan holds
// only the row buffer, so the planner neither places it nor counts it as I/O in the caller's buffers.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn {

// Per model input (by position): whether it is streamed. One pass over the nodes.
template <class Graph>
constexpr std::array<bool, max_model_io> streamed_inputs(const Graph& m) {
  std::array<bool, max_model_io> read_by_rows{}, read_otherwise{};
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t id = n.inputs[static_cast<std::size_t>(k)];
      if (id < 0 || m.tensor_at(id).role != tensor_role::input || m.tensor_at(id).io_index < 0) continue;
      const auto slot = static_cast<std::size_t>(m.tensor_at(id).io_index);
      (n.kind == op_kind::fetch_rows && k == 0 ? read_by_rows : read_otherwise)[slot] = true;
    }
  }
  std::array<bool, max_model_io> streamed{};
  for (std::size_t s = 0; s < max_model_io; ++s) streamed[s] = read_by_rows[s] && !read_otherwise[s];
  return streamed;
}

}  // namespace ctnn
