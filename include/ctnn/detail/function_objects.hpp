#pragma once
// The comparison and logic function objects the op descriptors are written with (ops/comparison.hpp,
// ops/extremum.hpp, ops/logical.hpp), as types: decltype(greater) and so on (a captureless lambda is
// default-constructible). <functional>'s would do, but that header brings std::function,
// std::unordered_map and std::vector into every translation unit (docs/compile_time.md).

namespace ctnn::detail {

inline constexpr auto greater = [](const auto& a, const auto& b) -> bool { return a > b; };
inline constexpr auto greater_equal = [](const auto& a, const auto& b) -> bool { return a >= b; };
inline constexpr auto less = [](const auto& a, const auto& b) -> bool { return a < b; };
inline constexpr auto less_equal = [](const auto& a, const auto& b) -> bool { return a <= b; };
inline constexpr auto equal_to = [](const auto& a, const auto& b) -> bool { return a == b; };
inline constexpr auto not_equal_to = [](const auto& a, const auto& b) -> bool { return a != b; };
inline constexpr auto logical_and = [](const auto& a, const auto& b) -> bool { return a && b; };
inline constexpr auto logical_or = [](const auto& a, const auto& b) -> bool { return a || b; };

}  // namespace ctnn::detail
