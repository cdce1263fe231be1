#pragma once
// A short, fixed-capacity name (of an op or a tensor) that lives inside constexpr tables.
#include <array>
#include <cstddef>
#include <string_view>

namespace ctnn {

struct name {
  static constexpr std::size_t capacity = 31;
  // A longer text keeps its first and last characters around "...": converters' names (TFLite's
  // "model/activation_26/Relu", PyTorch's "/features/features.0/features.0.0/Conv_output_0") differ at
  // both ends, so the head and the tail together tell ops apart where a cut prefix would not. The bound is
  // the module's label capacity: every tensor and node holds one, and a compile error spells one as a
  // template argument per character (docs/design.md §3).
  static constexpr std::size_t kept_head = 14;
  static constexpr std::size_t kept_tail = capacity - kept_head - 3;
  std::array<char, capacity + 1> text{};

  constexpr name() = default;
  constexpr name(std::string_view s) { assign(s.data(), s.size()); }
  // Call-free loops on raw pointers: the importers label every tensor with it, and clang counts every
  // step of a constant evaluation (docs/design.md §6).
  constexpr void assign(const char* s, std::size_t length) {
    text = {};
    char* out = text.data();
    if (length <= capacity) {
      for (std::size_t i = 0; i < length; ++i) out[i] = s[i];
      return;
    }
    for (std::size_t i = 0; i < kept_head; ++i) out[i] = s[i];
    out[kept_head] = out[kept_head + 1] = out[kept_head + 2] = '.';
    const char* tail = s + (length - kept_tail);
    for (std::size_t i = 0; i < kept_tail; ++i) out[kept_head + 3 + i] = tail[i];
  }
  constexpr std::size_t size() const {
    std::size_t n = 0;
    while (n < capacity && text[n] != '\0') ++n;
    return n;
  }
  constexpr std::string_view view() const { return {text.data(), size()}; }
  constexpr bool empty() const { return text[0] == '\0'; }
  friend constexpr bool operator==(const name&, const name&) = default;
};

// Appends a decimal number to a name ("conv2d" + 3 -> "conv2d_3"), for generated op and tensor names.
constexpr name numbered(std::string_view base, std::size_t number) {
  std::array<char, 24> digits{};
  std::size_t count = 0;
  do {
    digits[count++] = static_cast<char>('0' + number % 10);
    number /= 10;
  } while (number != 0);
  name result{base};
  std::size_t at = result.size();
  if (at < name::capacity) result.text[at++] = '_';
  while (count > 0 && at < name::capacity) result.text[at++] = digits[--count];
  return result;
}

// A string usable as a template argument: dsl::node<"conv1", ...>.
template <std::size_t N>
struct fixed_string {
  char text[N]{};
  constexpr fixed_string(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
  constexpr std::string_view view() const { return {text, N - 1}; }
};

}  // namespace ctnn
