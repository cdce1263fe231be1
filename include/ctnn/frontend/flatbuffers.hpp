#pragma once
// A constexpr FlatBuffers reader, written from the format's description (FlatBuffers' internals.md; the
// facts are summarised in ../shared/FORMATS.md §1). It reads a byte span at compile time (the bytes of a
// model embedded as a string literal) and at run time (a file read into memory) with the same code.
//
//   flatbuffers::reader r{bytes, size};
//   flatbuffers::table root = r.root();                    // bytes 0..3: offset of the root table
//   std::uint32_t version = r.scalar<std::uint32_t>(root, 0, 0);   // field id 0, default 0
//   flatbuffers::vector v = r.vector_field(root, 2, 4);    // field id 2: a vector of 4-byte elements
//   flatbuffers::table first = r.table_at(v, 0);
//   if (r.failed()) { r.error().offset; r.error().what; }  // the first problem found
//
// Every read is bounds-checked against the span: offsets, vtables, tables, vectors and strings must lie
// inside it. A read that fails records the first error (the byte offset of the value that was wrong and
// what the reader expected there: flatbuffers::expectation) and returns an empty value (0, an absent
// table, an empty vector), so callers may read on and check failed() once per step. No exceptions, no
// undefined behaviour on hostile bytes, no reinterpret_cast (values are assembled from bytes, floats by
// std::bit_cast), and no pointer steps outside the span (clang rejects those in constant evaluation).
//
// Scalars are little-endian. Positions are byte offsets from the start of the span (32-bit: a
// FlatBuffer is smaller than 2 GiB). Position 0 holds the root offset, so no table, vector or string
// starts there: position 0 means "absent" in the handles below.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <ctnn/frontend/detail/reader_error.hpp>
#include <ctnn/ir/little_endian.hpp>

namespace ctnn::flatbuffers {

// What the reader expected at the byte offset where a read failed.
enum class expectation : std::int32_t {
  none,
  buffer_size,        // a span of 8 bytes up to 2 GiB (root offset + file identifier)
  root_offset,        // bytes 0..3: the offset of the root table, inside the span
  file_identifier,    // bytes 4..7: the schema's file identifier ("TFL3" for TFLite)
  table,              // a table: its int32 soffset to the vtable, inside the span
  vtable,             // a vtable: uint16 size (even, >= 4) and table size (>= 4), both inside the span
  field,              // a field's bytes inside its table's inline area
  offset,             // a uoffset (uint32) whose target lies inside the span
  vector,             // a vector: uint32 length and its elements inside the span
  string,             // a string: uint32 length, its bytes and a terminating 0 inside the span
  union_type,         // a union type tag naming the member the schema allows here
  element_index,      // an index inside a vector (a reader bug or a bad count elsewhere)
  // Schema-level expectations (checked by the readers of a schema, e.g. frontend/tflite/schema.hpp):
  schema_version,     // a schema version this reader knows
  subgraph,           // a model with at least one subgraph
  buffer_index,       // an index into the model's buffers
  opcode_index,       // an index into the model's operator codes
  tensor_index,       // a tensor index of the subgraph (or -1 where an operand may be omitted)
  produced_tensor,    // an operand that a graph input, a constant or an earlier op provides
  op_output,          // an op output that is not a constant, a graph input, or another op's output
  aligned_data,       // constant data aligned to its element size (the kernels read it in place)
  vector_length,      // a vector of the length the schema requires here
  tensor_size,        // a tensor of less than 2^31 bytes
};

constexpr const char* name_of(expectation e) {
  switch (e) {
    case expectation::none: return "none";
    case expectation::buffer_size: return "a buffer of 8 bytes up to 2 GiB";
    case expectation::root_offset: return "the root table offset";
    case expectation::file_identifier: return "the file identifier";
    case expectation::table: return "a table (its vtable offset)";
    case expectation::vtable: return "a vtable";
    case expectation::field: return "a field inside its table";
    case expectation::offset: return "an offset to an object inside the file";
    case expectation::vector: return "a vector (length and elements) inside the file";
    case expectation::string: return "a 0-terminated string inside the file";
    case expectation::union_type: return "the union member type this field allows";
    case expectation::element_index: return "an element index inside its vector";
    case expectation::schema_version: return "schema version 3";
    case expectation::subgraph: return "at least one subgraph";
    case expectation::buffer_index: return "a buffer index below the number of buffers";
    case expectation::opcode_index: return "an operator code index below the number of operator codes";
    case expectation::tensor_index: return "a tensor index below the number of tensors";
    case expectation::produced_tensor: return "an operand produced by a graph input, a constant or an earlier op";
    case expectation::op_output: return "an op output that no graph input, constant or other op provides";
    case expectation::aligned_data: return "constant data aligned to its element size";
    case expectation::vector_length: return "a vector of the length the schema requires";
    case expectation::tensor_size: return "a tensor of less than 2^31 bytes";
  }
  return "?";
}

// The first problem a reader found: the byte offset of the offending value and what was expected there.
using error = frontend_detail::reader_error<expectation>;
static_assert(std::has_unique_object_representations_v<error>);

// A table: its position and its vtable's (both checked when the handle is made).
struct table {
  std::uint32_t at = 0;            // 0: absent
  std::uint32_t vtable = 0;
  std::uint32_t vtable_size = 0;   // bytes, including the two header entries
  std::uint32_t inline_size = 0;   // bytes of the table's inline area, including the soffset
  constexpr bool present() const { return at != 0; }
};

// A vector: the position of element 0, the element count and size (checked to fit the span).
struct vector {
  std::uint32_t at = 0;  // 0: absent (an absent vector reads as empty)
  std::uint32_t length = 0;
  std::uint32_t element_size = 0;
  constexpr bool present() const { return at != 0; }
  constexpr std::uint32_t size() const { return length; }
  // The byte offset of element i (i < length).
  constexpr std::uint32_t position(std::uint32_t i) const { return at + i * element_size; }
};

// A string: the position of its first byte and its length (the terminating 0 is checked, not counted).
struct string {
  std::uint32_t at = 0;  // 0: absent
  std::uint32_t length = 0;
  constexpr bool present() const { return at != 0; }
};

class reader {
 public:
  constexpr reader(const char* data, std::size_t size) : data_(data), size_(size) {
    if (size < 8 || size > 0x7fffffffu) fail(0, expectation::buffer_size);
  }

  constexpr const char* data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool failed() const { return error_.failed(); }
  constexpr const flatbuffers::error& error() const { return error_; }

  // Records a problem found by a schema reader on top of this one (the first one wins).
  constexpr void fail(std::int64_t offset, expectation what) {
    if (!error_.failed()) error_ = flatbuffers::error{offset, what, 0};
  }

  // Raw little-endian loads at a checked position (bounds checked here too; out of range reads 0).
  constexpr std::uint32_t byte(std::uint32_t at) const {
    return at < size_ ? static_cast<std::uint32_t>(static_cast<unsigned char>(data_[at])) : 0u;
  }
  constexpr std::uint32_t load_u16(std::uint32_t at) const { return fits(at, 2) ? load_le<std::uint16_t>(data_, at) : 0u; }
  constexpr std::uint32_t load_u32(std::uint32_t at) const { return fits(at, 4) ? load_le<std::uint32_t>(data_, at) : 0u; }
  constexpr std::uint64_t load_u64(std::uint32_t at) const { return fits(at, 8) ? load_le<std::uint64_t>(data_, at) : 0u; }

  // A scalar of type T (1, 2, 4 or 8 bytes: integers, enums, bool, float, double) at a position.
  template <class T>
  constexpr T load(std::uint32_t at) const {
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>, "flatbuffers::reader::load<T>: a scalar type");
    if constexpr (std::is_same_v<T, bool>) return byte(at) != 0;
    else if constexpr (std::is_enum_v<T>) return static_cast<T>(load<std::underlying_type_t<T>>(at));
    else return fits(at, sizeof(T)) ? load_le<T>(data_, at) : T{};  // out of range reads 0
  }

  // ------------------------------------------------------------------------------------------------
  // Structure.

  // The root table (bytes 0..3 hold its offset).
  constexpr table root() {
    if (failed()) return {};
    const std::uint64_t target = load_u32(0);
    if (target < 8 || target >= size_) {
      fail(0, expectation::root_offset);
      return {};
    }
    return table_at_position(static_cast<std::uint32_t>(target));
  }

  // Whether bytes 4..7 are the 4-character file identifier `id`.
  constexpr bool has_identifier(std::string_view id) const {
    if (size_ < 8 || id.size() != 4) return false;
    for (std::uint32_t i = 0; i < 4; ++i)
      if (byte(4 + i) != static_cast<std::uint32_t>(static_cast<unsigned char>(id[i]))) return false;
    return true;
  }

  // A table at a position: checks its soffset, vtable and inline area.
  constexpr table table_at_position(std::uint32_t at) {
    if (failed()) return {};
    if (at == 0 || !fits(at, 4)) {
      fail(at, expectation::table);
      return {};
    }
    const auto soffset = static_cast<std::int32_t>(load_u32(at));
    const std::int64_t vt = static_cast<std::int64_t>(at) - soffset;
    if (vt < 0 || vt + 4 > static_cast<std::int64_t>(size_)) {
      fail(at, expectation::table);
      return {};
    }
    const auto vtable = static_cast<std::uint32_t>(vt);
    const std::uint32_t vsize = load_u16(vtable);
    const std::uint32_t isize = load_u16(vtable + 2);
    if (vsize < 4 || vsize % 2 != 0 || !fits(vtable, vsize) || isize < 4 || !fits(at, isize)) {
      fail(vtable, expectation::vtable);
      return {};
    }
    return table{at, vtable, vsize, isize};
  }

  // The offset (from the table's start) of field `id`, or 0 when the field is absent; checks that
  // `bytes` bytes of it lie inside the table's inline area.
  constexpr std::uint32_t field_offset(const table& t, std::uint32_t id, std::uint32_t bytes) {
    if (!t.present() || failed()) return 0;
    const std::uint32_t entry = 4 + 2 * id;
    if (entry + 2 > t.vtable_size) return 0;  // an older writer: the field is absent
    const std::uint32_t offset = load_u16(t.vtable + entry);
    if (offset == 0) return 0;
    if (offset < 4 || offset + bytes > t.inline_size) {
      fail(t.vtable + entry, expectation::field);
      return 0;
    }
    return offset;
  }

  // Field `id` of a table as a scalar of type T, or `fallback` (the schema's default) when absent.
  template <class T>
  constexpr T scalar(const table& t, std::uint32_t id, T fallback) {
    const std::uint32_t offset = field_offset(t, id, sizeof(T));
    return offset == 0 ? fallback : load<T>(t.at + offset);
  }

  // The position a uoffset field points to, or 0 when the field is absent.
  constexpr std::uint32_t offset_target(const table& t, std::uint32_t id) {
    const std::uint32_t offset = field_offset(t, id, 4);
    if (offset == 0) return 0;
    return follow(t.at + offset);
  }

  // Follows the uoffset stored at `at` (target = at + value); 0 and a failure if it leaves the span.
  constexpr std::uint32_t follow(std::uint32_t at) {
    if (failed()) return 0;
    const std::uint64_t target = static_cast<std::uint64_t>(at) + load_u32(at);
    if (!fits(at, 4) || target >= size_ || target == at) {
      fail(at, expectation::offset);
      return 0;
    }
    return static_cast<std::uint32_t>(target);
  }

  // Field `id` as a table (absent: an absent table).
  constexpr table table_field(const table& t, std::uint32_t id) {
    const std::uint32_t target = offset_target(t, id);
    return target == 0 ? table{} : table_at_position(target);
  }

  // Field `id` as a vector of `element_size`-byte elements (absent: an absent, empty vector).
  constexpr vector vector_field(const table& t, std::uint32_t id, std::uint32_t element_size) {
    const std::uint32_t target = offset_target(t, id);
    return target == 0 ? vector{} : vector_at_position(target, element_size);
  }

  // A vector whose length word is at `at`.
  constexpr vector vector_at_position(std::uint32_t at, std::uint32_t element_size) {
    if (failed()) return {};
    if (!fits(at, 4)) {
      fail(at, expectation::vector);
      return {};
    }
    const std::uint32_t length = load_u32(at);
    const std::uint64_t end = static_cast<std::uint64_t>(at) + 4 + static_cast<std::uint64_t>(length) * element_size;
    if (end > size_) {
      fail(at, expectation::vector);
      return {};
    }
    return vector{at + 4, length, element_size};
  }

  // Field `id` as a string (absent: an absent string).
  constexpr string string_field(const table& t, std::uint32_t id) {
    const std::uint32_t target = offset_target(t, id);
    return target == 0 ? string{} : string_at_position(target);
  }

  constexpr string string_at_position(std::uint32_t at) {
    if (failed()) return {};
    const vector bytes = vector_at_position(at, 1);
    if (failed()) {
      error_.what = expectation::string;
      return {};
    }
    if (bytes.at + bytes.length >= size_ || byte(bytes.at + bytes.length) != 0) {
      fail(at, expectation::string);
      return {};
    }
    return string{bytes.at, bytes.length};
  }

  // A union: the member table of field `value_id` when the type tag (field `type_id`, ubyte) is
  // `expected_type`; an absent table when the tag is 0 (NONE) or the value is absent; a failure when
  // the tag names another member.
  constexpr table union_field(const table& t, std::uint32_t type_id, std::uint32_t value_id, std::uint8_t expected_type) {
    const auto type = scalar<std::uint8_t>(t, type_id, 0);
    if (type == 0 || failed()) return {};
    if (type != expected_type) {
      fail(t.at + field_offset(t, type_id, 1), expectation::union_type);
      return {};
    }
    return table_field(t, value_id);
  }

  // ------------------------------------------------------------------------------------------------
  // Vector elements (i < v.length, else a failure).

  template <class T>
  constexpr T element(const vector& v, std::uint32_t i) {
    if (!check_index(v, i, sizeof(T))) return T{};
    return load<T>(v.position(i));
  }
  constexpr table table_at(const vector& v, std::uint32_t i) {
    if (!check_index(v, i, 4)) return {};
    const std::uint32_t target = follow(v.position(i));
    return target == 0 ? table{} : table_at_position(target);
  }
  constexpr string string_at(const vector& v, std::uint32_t i) {
    if (!check_index(v, i, 4)) return {};
    const std::uint32_t target = follow(v.position(i));
    return target == 0 ? string{} : string_at_position(target);
  }

  // The characters of a string, viewing the span (no copy).
  constexpr std::string_view view(const string& s) const {
    if (!s.present()) return {};
    return std::string_view{data_ + s.at, s.length};
  }
  // A pointer to a position in the span (at <= size).
  constexpr const char* pointer(std::uint32_t at) const { return at <= size_ ? data_ + at : nullptr; }

 private:
  constexpr bool fits(std::uint64_t at, std::uint64_t bytes) const { return at + bytes <= size_; }

  constexpr bool check_index(const vector& v, std::uint32_t i, std::uint32_t bytes) {
    if (failed()) return false;
    if (i >= v.length || bytes > v.element_size) {
      fail(v.at == 0 ? 0 : v.at - 4, expectation::element_index);
      return false;
    }
    return true;
  }

  const char* data_ = nullptr;
  std::size_t size_ = 0;
  flatbuffers::error error_{};
};

}  // namespace ctnn::flatbuffers
