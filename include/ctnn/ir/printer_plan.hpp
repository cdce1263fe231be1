#pragma once
// The memory plan as text (print/printer.hpp, print_memory_plan): pools, arena size, liveness lower bound,
// one row per placed tensor and per call's scratch.
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/enum_names.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>
#include <ctnn/ir/printer_text.hpp>

namespace ctnn::detail {

// A planned pool's name ("arena" for the default pool).
constexpr std::string_view pool_name(const module_view& m, std::int32_t p) {
  if (m.pool_count <= 0 && p == 0) return "arena";
  if (p < 0 || p >= m.pool_count || m.pools[p].name == nullptr) return "?";
  return m.pools[p].name;
}

inline void write_memory_plan(text_writer& w, const module_view& m, std::size_t indent) {
  w.spaces(indent);
  if (!m.has(fact::memory_planned)) {
    w.put("memory: not planned yet");
    return w.line();
  }
  w.field("arena: ", m.arena_bytes);
  w.field(" bytes (alignment ", m.arena_alignment);
  w.field("), liveness lower bound ", m.liveness_lower_bound);
  w.put(" bytes");
  if (m.peak_node >= 0) {
    w.put(" at ");
    put_node_name(w, m, m.peak_node);
  }
  w.line();
  // Several pools: one line each (bytes, limit, alignment, lower bound of its buffers and the op there).
  const bool several_pools = m.pool_count > 1;
  for (std::int32_t p = 0; several_pools && p < m.pool_count; ++p) {
    const memory::pool_info& pool = m.pools[p];
    const memory::pool_usage& usage = m.pool_usage[p];
    w.spaces(indent);
    w.field("  pool ", p);
    w.put(" \"");
    w.put(pool_name(m, p));
    w.field("\": ", usage.bytes);
    w.put(" bytes (limit ");
    if (pool.size_limit < 0) w.put("none");
    else w.number(pool.size_limit);
    w.field(", alignment ", pool.alignment);
    w.put(pool.read_only ? ", read-only: the constants)" : "), lower bound ");
    if (!pool.read_only) {
      w.number(usage.lower_bound);
      if (usage.peak_node >= 0) {
        w.put(" at ");
        put_node_name(w, m, usage.peak_node);
      }
    }
    w.line();
  }
  w.spaces(indent);
  w.put("  offset     bytes  first   last  tensor");
  w.line();
  // One row per placed tensor (with its pool when there are several), then each call's scratch.
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const auto& a = m.allocations[static_cast<std::size_t>(t)];
    if (a.offset < 0) continue;
    const tensor_lifetime life = lifetime_of(m, t);
    w.spaces(indent);
    w.number(a.offset, 8);
    w.number(m.tensor_at(t).bytes(), 10);
    w.number(life.first_use, 7);
    w.number(life.last_use, 7);
    w.put("  ");
    w.put(m.tensor_at(t).label.view());
    if (several_pools) {
      w.put(" in ");
      w.put(pool_name(m, a.pool));
    }
    w.line();
  }
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& a = m.scratch[c];
    if (a.offset < 0) continue;
    const std::int32_t op = m.calls[c].node;
    w.spaces(indent);
    w.number(a.offset, 8);
    w.number(m.scratch_bytes[c], 10);
    w.number(op, 7);
    w.number(op, 7);
    w.field("  scratch of call ", c);
    if (several_pools) {
      w.put(" in ");
      w.put(pool_name(m, a.pool));
    }
    w.line();
  }
}

}  // namespace ctnn::detail
