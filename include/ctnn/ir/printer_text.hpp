#pragma once
// The printers' text (print/printer.hpp): a writer that knows its column and formats numbers without the C
// library, and the small pieces every section prints (shapes, types, tensor and op names, facts).
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/enum_names.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>
#include <ctnn/ir/printer_view.hpp>

namespace ctnn::detail {

// A sink wrapper that knows its column (for aligned tables) and formats numbers.
class text_writer {
 public:
  explicit text_writer(sink_ref sink) : sink_(sink) {}

  void put(std::string_view text) {
    if (text.empty()) return;
    sink_(text);
    const std::size_t newline = text.rfind('\n');
    column_ = newline == std::string_view::npos ? column_ + text.size() : text.size() - newline - 1;
  }
  void line() { put("\n"); }
  void spaces(std::size_t count) {
    constexpr std::string_view blank = "                                ";
    for (; count > blank.size(); count -= blank.size()) put(blank);
    put(blank.substr(0, count));
  }
  // Pads to `column`; text already past it is separated by one space.
  void tab(std::size_t column) { spaces(column_ < column ? column - column_ : 1); }
  // Pads to `column` without the separating space (fixed-width fields that may touch).
  void pad_to(std::size_t column) { spaces(column_ < column ? column - column_ : 0); }

  // A decimal integer, right-aligned in `width` columns (wider numbers are printed whole).
  void number(std::int64_t value, std::size_t width = 0) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    const auto size = static_cast<std::size_t>(end - digits);
    if (size < width) spaces(width - size);
    put(std::string_view{digits, size});
  }

  // A label and its value (" stride 2"): the printers' most common pair of calls.
  void field(std::string_view label, std::int64_t value, std::size_t width = 0) {
    put(label);
    number(value, width);
  }
  void real_field(std::string_view label, double value) {
    put(label);
    real(value);
  }

  // A real number with 6 significant digits, printf("%g") style (1e-05, 0.001, 2.5, 1e+06), without
  // the C library's floating-point formatting (large on bare-metal targets).
  void real(double value) {
    if (value != value) return put("nan");
    if (value < 0) {
      put("-");
      value = -value;
    }
    if (value > 1.7976931348623157e308) return put("inf");
    if (value == 0) return put("0");
    int exponent = 0;
    while (value >= 10.0) value /= 10.0, ++exponent;
    while (value < 1.0) value *= 10.0, --exponent;
    auto mantissa = static_cast<std::int64_t>(value * 100000.0 + 0.5);  // 6 digits: d.ddddd
    if (mantissa >= 1000000) mantissa /= 10, ++exponent;
    char digits[6];
    for (int i = 5; i >= 0; --i) digits[i] = static_cast<char>('0' + mantissa % 10), mantissa /= 10;
    int last = 5;  // without trailing zeros
    while (last > 0 && digits[last] == '0') --last;
    if (exponent < -4 || exponent >= 6) {
      put(std::string_view{digits, 1});
      if (last > 0) put("."), put(std::string_view{digits + 1, static_cast<std::size_t>(last)});
      put(exponent < 0 ? "e-" : "e+");
      const int magnitude = exponent < 0 ? -exponent : exponent;
      if (magnitude < 10) put("0");
      number(magnitude);
    } else if (exponent >= 0) {
      const int integral = exponent + 1;  // digits before the point (at most 6)
      put(std::string_view{digits, static_cast<std::size_t>(integral)});
      if (last >= integral) put("."), put(std::string_view{digits + integral, static_cast<std::size_t>(last - integral + 1)});
    } else {
      put("0.");
      for (int z = -1; z > exponent; --z) put("0");
      put(std::string_view{digits, static_cast<std::size_t>(last + 1)});
    }
  }

 private:
  sink_ref sink_;
  std::size_t column_ = 0;
};

// "(x0, x1) -> y": `count` operands, each printed by put_operand(k), then the result by put_result().
template <class PutOperand, class PutResult>
void put_operands_and_result(text_writer& w, std::int32_t count, PutOperand put_operand, PutResult put_result) {
  w.put("(");
  for (std::int32_t k = 0; k < count; ++k) {
    if (k > 0) w.put(", ");
    put_operand(k);
  }
  w.put(") -> ");
  put_result();
}

inline void put_shape(text_writer& w, const shape& s) {
  w.put("[");
  for (std::int32_t d = 0; d < s.rank; ++d) {
    if (d > 0) w.put(",");
    w.number(s[d]);
  }
  w.put("]");
}

// "f32[1,8,8,1]", or "?" while the shape is not inferred yet.
inline void put_type(text_writer& w, const module_view& m, const tensor& t) {
  if (!shape_known(m, t)) return w.put("?");
  w.put(name_of(t.type));
  put_shape(w, t.dims);
}

// "label: f32[1,8,8,1]" (or "none" for an absent operand).
inline void put_tensor_ref(text_writer& w, const module_view& m, std::int32_t id) {
  if (!m.valid_tensor(id)) return w.put("none");
  const tensor& t = m.tensor_at(id);
  w.put(t.label.view());
  w.put(": ");
  put_type(w, m, t);
}

inline void put_node_name(text_writer& w, const module_view& m, std::int32_t id) {
  if (!m.valid_node(id)) {
    w.put("op ");
    return w.number(id);
  }
  w.put("op ");
  w.number(id);
  w.put(" (");
  w.put(m.node_at(id).label.view());
  w.put(")");
}

// The fact bits by name, in bit order ("none" when there are none).
inline void put_facts(text_writer& w, std::uint32_t bits) {
  if (bits == 0) return w.put("none");
  bool first = true;
  for (std::uint32_t bit = 0; bit < 32; ++bit) {
    const std::uint32_t mask = 1u << bit;
    if ((bits & mask) == 0) continue;
    if (!first) w.put(", ");
    first = false;
    const std::string_view known = fact_name(static_cast<fact>(mask));
    if (!known.empty()) {
      w.put(known);
    } else {
      w.put("bit ");
      w.number(bit);
    }
  }
}

// The window of a conv or pool op: "window 3x3 stride 2x2 [dilation 2x2] padding same: t1 l1 b1 r1".
// Pads are shown once resolved (infer_types makes them explicit for every mode); valid padding has none.

}  // namespace ctnn::detail
