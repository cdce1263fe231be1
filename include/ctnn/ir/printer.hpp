#pragma once
// Readable text of a module: the op table (with shapes) and the memory plan. Writes through any sink
// callable with std::string_view, so the same code serves host tools and bare-metal firmware (no
// iostream, no heap).
#include <charconv>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/module.hpp>

namespace ctnn {

namespace detail {

template <class Sink>
void print_number(Sink& out, std::int64_t value, int width = 0) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  for (int pad = width - static_cast<int>(end - digits); pad > 0; --pad) out(std::string_view{" "});
  out(std::string_view{digits, static_cast<std::size_t>(end - digits)});
}

template <class Sink>
void print_padded(Sink& out, std::string_view text, std::size_t width) {
  out(text);
  for (std::size_t i = text.size(); i < width; ++i) out(std::string_view{" "});
}

template <class Sink>
void print_shape(Sink& out, const shape& s) {
  out(std::string_view{"["});
  for (std::int32_t d = 0; d < s.rank; ++d) {
    if (d > 0) out(std::string_view{","});
    print_number(out, s[d]);
  }
  out(std::string_view{"]"});
}

}  // namespace detail

// One line per op: index, kind, name, fused activation, input shape -> output shape, arena offset.
template <class Module, class Sink>
void print_summary(const Module& m, Sink&& out) {
  out(std::string_view{"model "});
  out(m.model_name.view());
  out(std::string_view{": "});
  detail::print_number(out, m.node_count);
  out(std::string_view{" ops, "});
  detail::print_number(out, m.tensor_count);
  out(std::string_view{" tensors\n"});
  std::int64_t parameters = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    detail::print_number(out, i, 4);
    out(std::string_view{"  "});
    detail::print_padded(out, name_of(n.kind), 18);
    detail::print_padded(out, n.label.view(), 14);
    if (n.attrs.fused != activation::none) {
      out(std::string_view{"+"});
      detail::print_padded(out, name_of(n.attrs.fused), 8);
    } else {
      detail::print_padded(out, "", 9);
    }
    detail::print_shape(out, m.tensor_at(n.inputs[0]).dims);
    out(std::string_view{" -> "});
    detail::print_shape(out, m.tensor_at(n.output).dims);
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
      if (t >= 0 && m.tensor_at(t).role == tensor_role::constant) parameters += m.tensor_at(t).dims.elements();
    }
    out(std::string_view{"\n"});
  }
  out(std::string_view{"parameters: "});
  detail::print_number(out, parameters);
  out(std::string_view{"\n"});
}

// The arena: size, liveness lower bound, and each intermediate tensor's offset, bytes and lifetime.
template <class Module, class Sink>
void print_memory_plan(const Module& m, Sink&& out) {
  out(std::string_view{"arena: "});
  detail::print_number(out, m.arena_bytes);
  out(std::string_view{" bytes (alignment "});
  detail::print_number(out, m.arena_alignment);
  out(std::string_view{"), liveness lower bound "});
  detail::print_number(out, m.liveness_lower_bound);
  out(std::string_view{" bytes at op "});
  detail::print_number(out, m.peak_node);
  out(std::string_view{"\n  offset     bytes  tensor\n"});
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const auto& a = m.allocations[static_cast<std::size_t>(t)];
    if (a.offset < 0) continue;
    detail::print_number(out, a.offset, 8);
    detail::print_number(out, m.tensor_at(t).bytes(), 10);
    out(std::string_view{"  "});
    out(m.tensor_at(t).label.view());
    out(std::string_view{"\n"});
  }
}

}  // namespace ctnn
