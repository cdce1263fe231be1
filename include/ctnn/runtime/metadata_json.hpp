#pragma once
// The executor and function metadata of a compiled module as JSON, in the spirit of TVM's Model
// Library Format metadata.json (docs/design.md §5: metadata is constexpr and a host tool prints it). The schema
// is documented field by field in docs/metadata.md; `ctnn-metadata` writes it for the digits model.
//
//   std::string json;
//   bool complete = ctnn::write_metadata_json(ctnn::compiled_v<Model>, [&](std::string_view s) { json += s; });
//
// Writes through any sink callable with std::string_view; no heap, no iostream. Integers and floats are
// formatted with std::to_chars (floats: shortest round-trip form), strings are JSON-escaped. A module
// that failed, or that has not been through create_function_metadata, create_executor_metadata and
// plan_memory, gives a small object with an "error" member, and the function returns false.
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <boost/hana/accessors.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/string.hpp>

#include <ctnn/ir/module.hpp>
#include <ctnn/print/printer.hpp>
#include <ctnn/version.hpp>

namespace ctnn {

// The "version" member of the JSON: bumped when a field changes meaning or disappears.
// 2: memory_plan.pools, .scratch, .in_place_calls, tensors' pool_index; 3: `pools` lists the plan's pools
// (names, bytes used, size_limit), inputs and outputs carry their quantization.
inline constexpr int metadata_json_version = 4;

namespace detail {

// numpy/TVM spelling of the element types ("float32", "int8", ...).
constexpr std::string_view json_dtype_name(dtype t) {
  switch (t) {
    case dtype::f32: return "float32";
    case dtype::i8: return "int8";
    case dtype::u8: return "uint8";
    case dtype::i32: return "int32";
    case dtype::i64: return "int64";
    case dtype::i16: return "int16";
    case dtype::b8: return "bool";
  }
  return "unknown";
}

// A small streaming JSON writer: containers open and close, members and elements get their commas and
// indentation (two spaces per level) by themselves. A container opened `compact` (and everything in
// it) stays on one line.
class json_writer {
 public:
  explicit json_writer(sink_ref sink) : sink_(sink) {}

  void begin_object(bool compact = false) { open('{', compact); }
  void end_object() { close('}'); }
  void begin_array(bool compact = false) { open('[', compact); }
  void end_array() { close(']'); }

  void key(std::string_view k) {
    element_prefix();
    quoted(k);
    put(": ");
    after_key_ = true;
  }
  void string(std::string_view v) {
    value_prefix();
    quoted(v);
  }
  void integer(std::int64_t v) {
    value_prefix();
    char digits[24];
    put({digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, v).ptr - digits)});
  }
  // Shortest round-trip form; JSON has no inf or nan, they become null.
  void real(float v) {
    value_prefix();
    if (v != v || v - v != 0.0f) return put("null");
    char digits[48];
    put({digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, v).ptr - digits)});
  }
  void boolean(bool v) {
    value_prefix();
    put(v ? "true" : "false");
  }
  void null() {
    value_prefix();
    put("null");
  }
  void finish() { put("\n"); }

  // "key": value in one call.
  void member(std::string_view k, std::string_view v) { key(k), string(v); }
  void member(std::string_view k, std::int64_t v) { key(k), integer(v); }
  void member_bool(std::string_view k, bool v) { key(k), boolean(v); }

 private:
  struct level {
    bool compact = false;
    bool empty = true;
  };

  void put(std::string_view s) { sink_(s); }

  void indent() {
    put("\n");
    for (std::size_t i = 0; i < depth_; ++i) put("  ");
  }
  // Before a member or an array element: the comma after the previous one, then a new line (or a space).
  void element_prefix() {
    if (depth_ == 0) return;
    level& l = stack_[depth_ - 1];
    if (!l.empty) put(",");
    if (!l.compact) indent();
    else if (!l.empty) put(" ");
    l.empty = false;
  }
  void value_prefix() {
    if (after_key_) after_key_ = false;
    else element_prefix();
  }
  void open(char bracket, bool compact) {
    value_prefix();
    put({&bracket, 1});
    const bool inherited = depth_ > 0 && stack_[depth_ - 1].compact;
    if (depth_ < stack_.size()) stack_[depth_] = level{compact || inherited, true};
    ++depth_;
  }
  void close(char bracket) {
    if (depth_ == 0) return;
    --depth_;
    const level l = depth_ < stack_.size() ? stack_[depth_] : level{true, true};
    if (!l.compact && !l.empty) indent();
    put({&bracket, 1});
  }
  // A JSON string: quote, backslash and control characters escaped; other bytes as they are (UTF-8).
  void quoted(std::string_view s) {
    put("\"");
    std::size_t plain = 0;  // start of the run of bytes that need no escape
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      put(s.substr(plain, i - plain));
      plain = i + 1;
      switch (c) {
        case '"': put("\\\""); break;
        case '\\': put("\\\\"); break;
        case '\n': put("\\n"); break;
        case '\r': put("\\r"); break;
        case '\t': put("\\t"); break;
        case '\b': put("\\b"); break;
        case '\f': put("\\f"); break;
        default: {
          constexpr std::string_view hex = "0123456789abcdef";
          const char escaped[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
          put({escaped, sizeof escaped});
        }
      }
    }
    put(s.substr(plain));
    put("\"");
  }

  sink_ref sink_;
  std::array<level, 16> stack_{};
  std::size_t depth_ = 0;
  bool after_key_ = false;
};

// ---------------------------------------------------------------------------------------------------
// The JSON objects, as structs adapted for Boost.Hana: a member's name is its JSON key, its type says
// how it is written (write_value below), and the members' order is the keys' order. One generic writer
// replaces a hand-written list of keys per object.

// A value that may be JSON null (a limit of -1, an unquantized tensor's quantization).
template <class T>
struct nullable {
  T value{};
  bool present = false;
};

struct json_quantization {
  BOOST_HANA_DEFINE_STRUCT(json_quantization, (float, scale), (std::int64_t, zero_point));
};
struct json_io {
  BOOST_HANA_DEFINE_STRUCT(json_io, (std::string_view, name), (ctnn::shape, shape), (std::string_view, dtype),
                           (std::int64_t, bytes), (nullable<json_quantization>, quantization));
};
struct json_pool {
  BOOST_HANA_DEFINE_STRUCT(json_pool, (std::string_view, name), (std::int64_t, bytes), (nullable<std::int64_t>, size_limit),
                           (std::int64_t, alignment), (bool, read_only));
};
struct json_function {
  BOOST_HANA_DEFINE_STRUCT(json_function, (std::int64_t, kernel), (std::string_view, op_kind), (std::int64_t, calls),
                           (std::int64_t, workspace_bytes), (std::int64_t, io_bytes), (std::int64_t, constant_bytes));
};
struct json_totals {
  BOOST_HANA_DEFINE_STRUCT(json_totals, (std::int64_t, arena_bytes), (std::int64_t, liveness_lower_bound),
                           (std::int64_t, constant_bytes), (std::int64_t, kernel_count), (std::int64_t, call_count),
                           (std::int64_t, state_bytes));
};
struct json_planned_pool {
  BOOST_HANA_DEFINE_STRUCT(json_planned_pool, (std::int64_t, index), (std::string_view, name), (std::int64_t, bytes),
                           (nullable<std::int64_t>, size_limit), (std::int64_t, alignment), (bool, read_only),
                           (std::int64_t, lower_bound), (std::int64_t, peak_op));
};
struct json_planned_tensor {
  BOOST_HANA_DEFINE_STRUCT(json_planned_tensor, (std::string_view, name), (std::int64_t, tensor), (std::string_view, pool),
                           (std::int64_t, pool_index), (std::int64_t, offset), (std::int64_t, bytes),
                           (std::int64_t, first_use), (std::int64_t, last_use));
};
struct json_scratch {
  BOOST_HANA_DEFINE_STRUCT(json_scratch, (std::int64_t, call), (std::int64_t, op), (std::string_view, pool),
                           (std::int64_t, pool_index), (std::int64_t, offset), (std::int64_t, bytes));
};

template <class T>
void write_value(json_writer& j, const T& value, bool compact = true);

inline void write_scalar(json_writer& j, std::string_view v) { j.string(v); }
inline void write_scalar(json_writer& j, std::int64_t v) { j.integer(v); }
inline void write_scalar(json_writer& j, float v) { j.real(v); }
inline void write_scalar(json_writer& j, bool v) { j.boolean(v); }
inline void write_scalar(json_writer& j, const shape& dims) {
  j.begin_array(true);
  for (std::int32_t d = 0; d < dims.rank; ++d) j.integer(dims[d]);
  j.end_array();
}
template <class T>
void write_scalar(json_writer& j, const nullable<T>& v) {
  if (v.present) write_value(j, v.value);
  else j.null();
}

// An adapted struct as an object (on one line when `compact`), anything else by write_scalar.
template <class T>
void write_value(json_writer& j, const T& value, bool compact) {
  if constexpr (boost::hana::Struct<T>::value) {
    j.begin_object(compact);
    boost::hana::for_each(boost::hana::accessors<T>(), [&](const auto& member) {
      j.key(boost::hana::to<const char*>(boost::hana::first(member)));
      write_value(j, boost::hana::second(member)(value));
    });
    j.end_object();
  } else {
    write_scalar(j, value);
  }
}

inline json_io json_io_of(const io_info& io) {
  nullable<json_quantization> quantization{{io.scale, io.zero_point}, io.scale != 0.0f};
  return {io.label.view(), io.dims, json_dtype_name(io.type), io.bytes, quantization};
}

constexpr nullable<std::int64_t> limit_of(std::int64_t size_limit) { return {size_limit, size_limit >= 0}; }

// The facts the metadata needs that the module does not have.
constexpr std::uint32_t metadata_facts =
    static_cast<std::uint32_t>(fact::memory_planned) | static_cast<std::uint32_t>(fact::function_metadata) |
    static_cast<std::uint32_t>(fact::executor_metadata);

}  // namespace detail

namespace detail {

inline bool write_metadata(json_writer& j, const module_view& m) {
  const executor_info& e = m.metadata;
  const std::uint32_t missing = metadata_facts & ~m.facts;

  j.begin_object();
  j.member("format", "ctnn-metadata");
  j.member("version", metadata_json_version);
  j.key("generator");
  {
    char text[48] = "ctnn ";
    char* at = text + 5;
    at = std::to_chars(at, text + sizeof text, version_major).ptr;
    *at++ = '.';
    at = std::to_chars(at, text + sizeof text, version_minor).ptr;
    *at++ = '.';
    at = std::to_chars(at, text + sizeof text, version_patch).ptr;
    j.string({text, static_cast<std::size_t>(at - text)});
  }
  j.member("model", m.model_name.view());

  if (m.error.failed() || missing != 0) {
    j.key("error");
    j.begin_object(true);
    if (m.error.failed()) {
      j.member("code", error_code_name(m.error.code));
      j.member("op", m.error.node);
      j.member("op_kind", name_of(m.error.kind));
      for (const diagnostic_detail_field& field : diagnostic_detail_fields)  // the details the code set
        if (m.error.*field.member != 0) j.member(field.name, m.error.*field.member);
    } else {
      j.member("code", "metadata_missing");
      j.key("missing_facts");
      j.begin_array(true);
      for (std::uint32_t bit = 0; bit < 32; ++bit)
        if ((missing & (1u << bit)) != 0) j.string(fact_name(static_cast<fact>(1u << bit)));
      j.end_array();
    }
    j.end_object();
    j.end_object();
    j.finish();
    return false;
  }

  j.key("inputs");
  j.begin_array();
  for (std::int32_t i = 0; i < e.input_count; ++i) write_value(j, json_io_of(e.inputs[static_cast<std::size_t>(i)]));
  j.end_array();
  j.key("outputs");
  j.begin_array();
  for (std::int32_t o = 0; o < e.output_count; ++o) write_value(j, json_io_of(e.outputs[static_cast<std::size_t>(o)]));
  j.end_array();

  j.key("pools");
  j.begin_array();
  for (std::int32_t p = 0; p < e.pool_count; ++p) {
    const pool_metadata& pool = e.pools[static_cast<std::size_t>(p)];
    write_value(j, json_pool{pool.name != nullptr ? std::string_view{pool.name} : std::string_view{}, pool.bytes,
                             limit_of(pool.size_limit), pool.alignment, pool.read_only});
  }
  j.end_array();

  j.key("functions");
  j.begin_array();
  for (std::int32_t k = 0; k < m.kernel_count; ++k) {
    const function_info& f = m.functions[static_cast<std::size_t>(k)];
    write_value(j, json_function{k, name_of(m.kernel(k).kind), f.calls, f.workspace_bytes,
                                 f.io_bytes, f.constant_bytes});
  }
  j.end_array();

  j.key("totals");
  write_value(j, json_totals{m.arena_bytes, m.liveness_lower_bound, e.constant_bytes, e.kernel_count, e.call_count, m.state_bytes}, false);

  j.key("memory_plan");
  j.begin_object();
  j.member("alignment", m.arena_alignment);
  j.member("peak_op", m.peak_node);
  // Every pool of the plan (version 2): its figures after planning.
  j.key("pools");
  j.begin_array();
  for (std::int32_t p = 0; p < m.pool_count; ++p) {
    const memory::pool_info& pool = m.pools[p];
    const memory::pool_usage& usage = m.pool_usage[p];
    write_value(j, json_planned_pool{p, pool_name(m, p), usage.bytes, limit_of(pool.size_limit), pool.alignment,
                                     pool.read_only, usage.lower_bound, usage.peak_node});
  }
  j.end_array();
  j.key("tensors");
  j.begin_array();
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const memory::pool_allocation& a = m.allocations[static_cast<std::size_t>(t)];
    if (a.offset < 0) continue;
    const tensor_lifetime life = lifetime_of(m, t);
    // `pool`: the plan's pool (version 1 named executor pool 0 "arena").
    write_value(j, json_planned_tensor{m.tensor_at(t).label.view(), t, pool_name(m, a.pool), a.pool, a.offset,
                                       m.tensor_at(t).bytes(), life.first_use, life.last_use});
  }
  j.end_array();
  // Each call's scratch (version 2): where plan_memory put it; calls without scratch are left out.
  j.key("scratch");
  j.begin_array();
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const memory::pool_allocation& a = m.scratch[c];
    if (a.offset < 0) continue;
    write_value(j, json_scratch{c, m.calls[c].node, pool_name(m, a.pool), a.pool, a.offset, m.scratch_bytes[c]});
  }
  j.end_array();
  // Calls whose result was placed over their input (ctnn::in_place_windows): they run the reference kernel.
  j.key("in_place_calls");
  j.begin_array(true);
  for (std::int32_t c = 0; c < m.call_count; ++c)
    if (m.calls[c].params.in_place == 1) j.integer(c);
  j.end_array();
  // Calls that would copy bytes onto themselves (a slice stored inside its input, a concat its producers wrote
  // into): the executor runs nothing for them; bytes_not_copied sums their results.
  j.key("skipped_copies");
  j.begin_array(true);
  std::int64_t not_copied = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c)
    if (m.calls[c].params.in_place == 2) {
      j.integer(c);
      not_copied += m.tensor_at(m.calls[c].result).bytes();
    }
  j.end_array();
  j.member("bytes_not_copied", not_copied);
  j.end_object();

  j.end_object();
  j.finish();
  return true;
}

}  // namespace detail

// Writes the module's metadata as JSON (docs/metadata.md); returns false (and writes an "error" object)
// when the module failed or lacks the metadata passes.
template <class Module, class Sink>
bool write_metadata_json(const Module& m, Sink&& out) {
  auto call = [&out](std::string_view text) { out(text); };  // also a plain function or a function pointer
  detail::json_writer j{detail::sink_ref{call}};
  return detail::write_metadata(j, detail::view_of(m));
}

}  // namespace ctnn
