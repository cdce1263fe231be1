#pragma once
// Bindings of the symbolic dimensions of an ONNX model's graph inputs (issue #28): exporters write a
// dim_param name ("batch") or leave dim_value out where the model takes any extent, and ctnn plans for
// one. The bindings are one text, the same on every route:
//
//   "batch=1 seq=16"              a dim_param name = its extent, on every input that names it
//   "input=[1,3,32,32]"           an input's whole shape (its unnamed symbolic dims; static ones must agree)
//
// entries separated by spaces, ';' or ','. ctnn::onnx::model<Bytes, Size, Name, Dims> takes it (Dims; CMake:
// ctnn_add_model(... ONNX_DIMS batch=1 ...)), the tools build it from --dim NAME=N and --input-shape
// NAME=D0,D1,... A symbolic FIRST axis that no binding gives is the batch: it is bound to 1. Any other
// unbound one is an error naming the input, the axis and the dim_param (onnx_error::symbolic_dimension).
// A binding that names no symbolic dimension of the model is ignored (as onnxruntime's free-dimension
// overrides are).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/shape.hpp>

namespace ctnn::onnx {

// What an import takes besides the file.
struct import_options {
  std::string_view dims{};  // the bindings of symbolic input dimensions (above)
};

namespace detail {

// One entry of a bindings text: key=value (value "[...]" for a shape).
struct dim_binding {
  std::string_view key{}, value{};
  std::size_t at = 0;  // where the entry starts in the text
  constexpr bool is_shape() const { return !value.empty() && value.front() == '['; }
};

constexpr bool is_binding_separator(char c) { return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == ','; }

// The entry at or after `at` (advanced past it): false at the end of the text. A malformed entry (no '=',
// an empty key or value, an unclosed '[') comes back with an empty value.
constexpr bool next_dim_binding(std::string_view text, std::size_t& at, dim_binding& b) {
  while (at < text.size() && is_binding_separator(text[at])) ++at;
  if (at >= text.size()) return false;
  const std::size_t start = at;
  std::size_t equals = std::string_view::npos;
  bool bracket = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (equals == std::string_view::npos && c == '=') equals = at, bracket = at + 1 < text.size() && text[at + 1] == '[';
    else if (bracket && c == ']') bracket = false;
    else if (!bracket && is_binding_separator(c)) break;
  }
  b = {};
  b.at = start;
  if (equals == std::string_view::npos || equals == start || bracket) return true;
  b.key = text.substr(start, equals - start);
  b.value = text.substr(equals + 1, at - equals - 1);
  return true;
}

// A positive extent below 2^31 in decimal, or -1.
constexpr std::int64_t binding_extent(std::string_view digits) {
  if (digits.empty() || digits.size() > 10) return -1;
  std::int64_t n = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n > 0 && n < (std::int64_t{1} << 31) ? n : -1;
}

// The extents of a "[d0,d1,...]" value into `out`: false when one is not an extent or there are more than
// max_rank.
constexpr bool binding_shape(std::string_view value, shape& out) {
  out = shape{};
  if (value.size() < 2 || value.front() != '[' || value.back() != ']') return false;
  value = value.substr(1, value.size() - 2);
  for (std::size_t at = 0; at <= value.size();) {
    std::size_t end = value.find(',', at);
    if (end == std::string_view::npos) end = value.size();
    const std::int64_t extent = binding_extent(value.substr(at, end - at));
    if (extent < 0 || out.rank >= static_cast<std::int32_t>(max_rank)) return false;
    out.dims[static_cast<std::size_t>(out.rank++)] = static_cast<std::int32_t>(extent);
    at = end + 1;
  }
  return out.rank > 0;
}

// The extent a bindings text gives the dim_param `dim` (the last entry wins), or -1.
constexpr std::int64_t bound_extent(std::string_view text, std::string_view dim) {
  std::int64_t extent = -1;
  dim_binding b{};
  for (std::size_t at = 0; !dim.empty() && next_dim_binding(text, at, b);)
    if (!b.is_shape() && b.key == dim && binding_extent(b.value) > 0) extent = binding_extent(b.value);
  return extent;
}

// The shape a bindings text gives the input `input` into `out` (the last entry wins): false when none.
constexpr bool bound_input_shape(std::string_view text, std::string_view input, shape& out) {
  bool found = false;
  dim_binding b{};
  for (std::size_t at = 0; next_dim_binding(text, at, b);) {
    shape s{};
    if (b.is_shape() && b.key == input && binding_shape(b.value, s)) out = s, found = true;
  }
  return found;
}

}  // namespace detail

// The position of the first malformed entry of a bindings text, or -1: every entry NAME=N or NAME=[D0,...]
// (the tools and onnx::model check the text with it; the import ignores a malformed entry).
constexpr std::int64_t malformed_dim_binding(std::string_view text) {
  detail::dim_binding b{};
  for (std::size_t at = 0; detail::next_dim_binding(text, at, b);) {
    shape s{};
    if (b.is_shape() ? !detail::binding_shape(b.value, s) : detail::binding_extent(b.value) < 0)
      return static_cast<std::int64_t>(b.at);
  }
  return -1;
}

}  // namespace ctnn::onnx
