#pragma once
// Calls f(std::integral_constant<std::size_t, I>) for I in [0, N) in order, without recursion and in
// chunks, so that no fold expression nests deeper than clang's 256-bracket limit (docs/design.md §2).
#include <cstddef>
#include <type_traits>
#include <utility>

namespace ctnn::detail {

inline constexpr std::size_t index_chunk = 64;

template <std::size_t Begin, class F, std::size_t... I>
constexpr void for_each_index_in_chunk(F& f, std::index_sequence<I...>) {
  (f(std::integral_constant<std::size_t, Begin + I>{}), ...);
}

template <std::size_t N, class F>
constexpr void for_each_index(F&& f) {
  [&]<std::size_t... Chunk>(std::index_sequence<Chunk...>) {
    (for_each_index_in_chunk<Chunk * index_chunk>(
         f, std::make_index_sequence<(N - Chunk * index_chunk < index_chunk ? N - Chunk * index_chunk : index_chunk)>{}),
     ...);
  }(std::make_index_sequence<(N + index_chunk - 1) / index_chunk>{});
}

}  // namespace ctnn::detail
