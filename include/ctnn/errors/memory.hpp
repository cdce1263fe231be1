#pragma once
// Compile errors of memory planning (memory_error codes): a pool over its limit, a pin that names nothing.
#include <cstdint>

#include <ctnn/errors/graph.hpp>

namespace ctnn::errors {

template <std::int64_t Index> struct pool_index;
template <std::int64_t Bytes> struct needed_bytes;
template <std::int64_t Bytes> struct limit_bytes;
template <std::int64_t Position> struct pin_position;

// Memory budgets (plan_memory): the pool, the bytes its plan needs, its limit and the op at its peak
// (ctnn-memory-report prints the names behind these numbers).
template <class Pool, class Needed, class Limit, class PeakOp>
struct pool_budget_exceeded {
  static_assert(detail::always_false<Pool>, "ctnn: the model needs more memory than a pool's limit allows (the pool "
                                             "index, the bytes needed, the limit and the op at the pool's peak are the "
                                             "template arguments); raise the limit, add a fallback pool, or unpin "
                                             "buffers from it.");
};
template <class Pin>
struct pin_names_no_tensor {
  static_assert(detail::always_false<Pin>, "ctnn: a ctnn::pin<> names a tensor (or ctnn::pin_op<> an op) that has no "
                                            "buffer to place (its position among the pins is the template argument).");
};
template <class Pin>
struct pin_names_no_pool {
  static_assert(detail::always_false<Pin>, "ctnn: a ctnn::pin<> names a pool that is not among the model's writable "
                                            "pools (its position among the pins is the template argument).");
};

}  // namespace ctnn::errors
