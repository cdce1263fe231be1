#pragma once
// The memory vocabulary the module holds (docs/design.md §3): the pools a plan may use (pool_info), the
// pins that restrict buffers to one pool (pool_pin), where a buffer went (pool_allocation) and what each
// pool needs (pool_usage). They live in ir/ because the module stores them; the planning passes fill them.
// The namespace stays ctnn::memory, where users look.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/name.hpp>

namespace ctnn::memory {

// At most this many pools per model (SRAM, DTCM, external RAM, ...); buffer_info::candidate_pools is a
// bit mask over them.
inline constexpr std::size_t max_pools = 8;
inline constexpr std::uint32_t all_pools = (1u << max_pools) - 1u;

enum class buffer_kind : std::uint8_t { input, output, intermediate, scratch, constant };

constexpr const char* name_of(buffer_kind k) {
  switch (k) {
    case buffer_kind::input: return "input";
    case buffer_kind::output: return "output";
    case buffer_kind::intermediate: return "intermediate";
    case buffer_kind::scratch: return "scratch";
    case buffer_kind::constant: return "constant";
  }
  return "?";
}

// At most this many pins per plan (ctnn::pin<>, pin_op<>, pin_kind<>).
inline constexpr std::size_t max_pins = 16;

struct pool_info {
  const char* name = "arena";
  std::int64_t size_limit = -1;  // -1: no limit
  std::int32_t alignment = 16;   // of the pool's start, and of every offset in it
  bool read_only = false;        // read-only pools (flash) hold no planned buffer
};

struct pool_allocation {
  std::int32_t pool = 0;
  std::int64_t offset = -1;  // -1: not placed in a pool (caller's inputs and outputs, constants, views)
};

// A pin as pass::assign_pools resolved it: the buffers it names may only go to pool `pool`. It names every
// buffer of a kind (by_kind), or the tensors called `tensor_name` (by_name), or else tensor `tensor` (an op
// pin: the op's result, resolved before any reordering; -1: none). Pin k of the options is
// module::pins[k]; later pins win.
struct pool_pin {
  std::int32_t pool = -1;
  bool by_kind = false;
  bool by_name = false;
  buffer_kind kind = buffer_kind::intermediate;
  name tensor_name{};
  std::int32_t tensor = -1;
};

// What one pool needs after planning.
struct pool_usage {
  std::int64_t bytes = 0;        // the pool's size: highest placed byte, rounded up to its alignment
  std::int64_t lower_bound = 0;  // liveness lower bound of the buffers placed in it
  std::int32_t peak_node = -1;   // the op where that bound is reached (-1: empty pool)
  std::int32_t buffer_count = 0;
};

}  // namespace ctnn::memory
