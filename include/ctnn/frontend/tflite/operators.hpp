#pragma once
// What the TFLite importer supports, from its own tables (import_plan.hpp's op_table and custom_op_table), for
// tools and docs:
//
//   ctnn::tflite::for_each_operator([](builtin_operator code, op_kind kind) { ... });   // in table order
//
// and every operator and tensor type of a file that it has no row or element type for, so that a tool
// names them all at once (the importer stops at its first problem, and checks tensors before ops):
//
//   const auto found = ctnn::tflite::list_unsupported(bytes, size, [](std::string_view line) { ... });
//
// calls the sink with one line per finding ("op 3 (LSH_PROJECTION "name")", "tensor 0 ("name"): type
// FLOAT16", "op 0 (CONV_2D "name"): UINT8 tensor 0 "input""), in file order, and returns their count. A file
// the reader cannot walk gives what was found before the damage. The lists are op_table (import_plan.hpp),
// dtype_of (import_tensors.hpp) and refused_uint8_tensor (uint8_operators.hpp): a row added there is
// supported here.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/import_tensors.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/frontend/tflite/uint8_operators.hpp>
#include <ctnn/ir/diagnostic_text.hpp>

namespace ctnn::tflite {

namespace detail {

// `"name"` of tensor t (the part before a converter's ';'), or nothing when it has none.
template <class Sink>
void put_tensor_name(model_file& f, std::int32_t t, Sink& sink) {
  if (t < 0 || static_cast<std::uint32_t>(t) >= f.tensor_count()) return;
  const tensor_view tv = f.tensor(static_cast<std::uint32_t>(t));
  if (f.failed() || !tv.name.present()) return;
  std::string_view text = f.reader().view(tv.name);
  text = text.substr(0, text.find(';'));
  sink(" \"");
  sink(text);
  sink("\"");
}

}  // namespace detail

template <class F>
constexpr void for_each_operator(F&& f) {
  for (const detail::op_row& row : detail::op_table) f(row.code, row.kind);
}

// The custom operators (builtin code CUSTOM) by their custom_code (import_plan.hpp's custom_op_table).
template <class F>
constexpr void for_each_custom_operator(F&& f) {
  for (const detail::custom_op_row& row : detail::custom_op_table) f(row.custom_code, row.kind);
}

template <class Sink>
std::int32_t list_unsupported(const char* bytes, std::size_t size, Sink&& sink) {
  model_file f{bytes, size};
  std::int32_t found = 0;
  if (f.failed()) return found;
  for (std::uint32_t i = 0; i < f.tensor_count(); ++i) {
    const tensor_view tv = f.tensor(i);
    if (f.failed()) return found;
    dtype type{};
    if (detail::dtype_of(tv.type, type)) continue;
    ++found;
    sink("tensor ");
    ctnn::detail::diagnostic_text::put_number(sink, i);
    detail::put_tensor_name(f, static_cast<std::int32_t>(i), sink);
    sink(": type ");
    sink(name_of(tv.type));
    sink("\n");
  }
  for (std::uint32_t i = 0; i < f.operator_count(); ++i) {
    const operator_view o = f.op(i);
    if (f.failed()) return found;
    const bool custom = o.code == builtin_operator::custom;
    const bool has_row = custom ? detail::find_custom_op(f.reader().view(o.custom_code)) >= 0 : detail::find_op(o.code) >= 0;
    // An op with a row: listed for a UINT8 tensor TFLM does not run there (uint8_operators.hpp).
    const std::int32_t uint8_tensor = has_row ? detail::refused_uint8_tensor(f, o.code, o) : -1;
    if (f.failed()) return found;
    if (has_row && uint8_tensor < 0) continue;
    ++found;
    sink("op ");
    ctnn::detail::diagnostic_text::put_number(sink, i);
    sink(" (");
    sink(name_of(o.code));
    if (custom) {
      sink(" \"");
      sink(f.reader().view(o.custom_code));
      sink("\"");
    }
    if (o.outputs.length > 0) detail::put_tensor_name(f, f.index_at(o.outputs, 0), sink);
    sink(")");
    if (uint8_tensor >= 0) {
      sink(": UINT8 tensor ");
      ctnn::detail::diagnostic_text::put_number(sink, uint8_tensor);
      detail::put_tensor_name(f, uint8_tensor, sink);
    }
    sink("\n");
    if (f.failed()) return found;
  }
  return found;
}

}  // namespace ctnn::tflite
