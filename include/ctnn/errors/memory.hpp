#pragma once
// Compile errors of memory planning (memory_error codes): a pool over its limit, a pin that names nothing.
#include <cstdint>

#include <ctnn/errors/graph.hpp>

namespace ctnn::errors {

template <char... Name> struct pool_named;
template <char... Name> struct tensor_named;
template <std::int64_t Index> struct tensor_index;
template <std::int64_t Bytes> struct needed_bytes;
template <std::int64_t Bytes> struct limit_bytes;
template <std::int64_t Bytes> struct over_by_bytes;
template <std::int64_t Position> struct pin_position;

// Memory budgets (plan_memory): the pool by name, the bytes its plan needs, its limit, the excess and the op
// at its peak (ctnn-memory-report prints the names behind these numbers).
template <class Pool, class Needed, class Limit, class OverBy, class PeakOp>
struct pool_budget_exceeded {
  static_assert(detail::always_false<Pool>, "ctnn: the model needs more memory than a pool's limit allows (the pool's "
                                             "name, the bytes needed, the limit, the excess and the op at the pool's "
                                             "peak are the template arguments); raise the limit, add a fallback pool, "
                                             "or unpin buffers from it.");
};
template <class Pin, class Name, class FirstTensor, class SecondTensor>
struct pin_names_shared_tensor_name {
  static_assert(detail::always_false<Pin>, "ctnn: a ctnn::pin<> names a tensor name that two tensors share (the pin's "
                                            "position, the name and the two tensor indices are the template "
                                            "arguments); pin the tensor by its op instead (ctnn::pin_op<>).");
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
