#pragma once
// ctnn::placement_algorithm<A>: what ctnn::planner<A> (and pass::plan_memory<A>) expect of a placement
// algorithm (memory/algorithms.hpp, docs/memory.md):
//
//   struct my_algorithm {
//     template <class Buffers, class Allocations>   // std::array<buffer_info, N>, std::array<pool_allocation, N>
//     static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations);
//   };
//
// plan() writes one offset per buffer and returns the pool size. The concept checks the declaration only:
// plan is called, unevaluated, on one-element arrays (its body is not instantiated when its return type
// is written out, as every algorithm of ctnn does).
#include <array>
#include <concepts>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/member_named.hpp>
#include <ctnn/memory/buffer_info.hpp>

namespace ctnn {

namespace detail {

// One concept per member of the interface.
template <class A>
concept algorithm_has_plan = has_member_named_plan<A>;
template <class A>
concept algorithm_plan_takes_buffers = requires(const std::array<memory::buffer_info, 1>& buffers, std::int32_t count,
                                                std::array<memory::pool_allocation, 1>& allocations) {
  { A::plan(buffers, count, allocations) } -> std::convertible_to<std::int64_t>;
};

}  // namespace detail

template <class A>
concept placement_algorithm = std::is_class_v<A> && detail::algorithm_has_plan<A> && detail::algorithm_plan_takes_buffers<A>;

}  // namespace ctnn
