#pragma once
// The fields of op kinds that no other kind reads, in one storage that op_attributes and kernel_params share
// among those kinds (issue #24: every kind's field struct was a member of both, and both are copied by every
// pass and kernel_params is every call's template argument; docs/compile_time.md). The storage is words, not a
// union: it stays a structural type of unique object representations (a template argument on g++ 12 and
// clang 14, std::bit_cast-able), and a read of a struct other than the one held is no undefined behaviour but
// gives that struct's defaults, as a member of its own left untouched would. So a node or call holds one of
// these structs at a time: each of the listed structs belongs to kinds that read no other listed one.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ctnn {

template <class... Fields>
struct kind_fields {
  static_assert(((sizeof(Fields) % sizeof(std::uint32_t) == 0 && std::has_unique_object_representations_v<Fields>) && ...),
                "ctnn::kind_fields: a field struct must be whole 4-byte words without padding.");
  static constexpr std::size_t word_count = [] {
    std::size_t words = 0;
    ((words = sizeof(Fields) / sizeof(std::uint32_t) > words ? sizeof(Fields) / sizeof(std::uint32_t) : words), ...);
    return words;
  }();

  // 0: every struct at its defaults; k + 1: the k-th struct of Fields, its words at the front of `words` (the
  // rest zero). A struct set to its defaults is stored as none: equal fields have one representation (equal
  // kernel_params are one kernel).
  std::int32_t held = 0;
  std::array<std::uint32_t, word_count> words{};

  template <class F>
  static constexpr bool holds = (std::is_same_v<F, Fields> || ...);

  template <class F>
  static constexpr std::int32_t tag_of() {
    static_assert((std::is_same_v<F, Fields> || ...), "ctnn::kind_fields: not one of its structs.");
    std::int32_t tag = 0, k = 0;
    ((++k, tag = std::is_same_v<F, Fields> ? k : tag), ...);
    return tag;
  }

  template <class F>
  constexpr F get() const {
    if (held != tag_of<F>()) return F{};
    std::array<std::uint32_t, sizeof(F) / sizeof(std::uint32_t)> own{};
    for (std::size_t i = 0; i < own.size(); ++i) own[i] = words[i];
    return std::bit_cast<F>(own);
  }

  // Setting a struct while another one is held is a mistake of the code that sets it (a kind that reads both
  // would lose one): refused in constant evaluation (overwrite() is not constexpr); a node that changes kind
  // clears its fields first (clear()).
  template <class F>
  constexpr void set(const F& f) {
    if (held != 0 && held != tag_of<F>()) overwrite();
    words = {};
    held = f == F{} ? 0 : tag_of<F>();
    if (held == 0) return;
    const auto own = std::bit_cast<std::array<std::uint32_t, sizeof(F) / sizeof(std::uint32_t)>>(f);
    for (std::size_t i = 0; i < own.size(); ++i) words[i] = own[i];
  }

  constexpr void clear() { *this = {}; }

  friend constexpr bool operator==(const kind_fields&, const kind_fields&) = default;

 private:
  // Not constexpr: a constant evaluation that reaches it fails here (ctnn: a kind_fields struct set over another).
  static void overwrite() {}
};

}  // namespace ctnn
