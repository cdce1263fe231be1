#pragma once
// A constexpr protobuf wire-format reader, written from the encoding's description (protobuf.dev's
// encoding guide; the facts are summarised in ../shared/FORMATS.md §3). It reads a byte span at compile
// time (the bytes of a model embedded as a string literal) and at run time (a file read into memory)
// with the same code, like frontend/flatbuffers.hpp.
//
//   protobuf::reader r{bytes, size};
//   protobuf::span model = r.whole();                      // the top-level message
//   protobuf::field f{};
//   for (std::uint32_t at = model.at; r.next(model, at, f);) {   // every field, in file order
//     if (f.number == 7 && f.type == protobuf::wire::len) graph = f.bytes;  // a sub-message
//   }
//   protobuf::field last = r.last(model, 1);               // a singular field: the last one wins
//   if (r.failed()) { r.error().offset; r.error().what; }  // the first problem found
//
// Protobuf has no offsets: a message is a sequence of (tag, value) records, and a sub-message is the
// payload of a length-delimited record. A message is therefore a span of bytes, and a field's payload is
// either a number (varint, 32- or 64-bit little-endian) or a span. Every read is bounds-checked against
// its enclosing span: varints are at most 10 bytes, lengths fit the span, field numbers are >= 1 and wire
// types are 0, 1, 2 or 5 (groups, 3 and 4, are not used by ONNX and are refused). A read that fails
// records the first error (the byte offset where the reader was and what it expected there:
// protobuf::expectation) and stops the iteration, so callers may read on and check failed() once per
// step. No exceptions, no undefined behaviour on hostile bytes, no reinterpret_cast, no pointer steps
// outside the span (clang rejects those in constant evaluation).
//
// Repeated scalars may be written packed (one length-delimited record of back-to-back values) or
// unpacked (one record per value); repeated_count/repeated_at accept both, and a mix of both.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <ctnn/frontend/detail/reader_error.hpp>
#include <ctnn/ir/little_endian.hpp>

namespace ctnn::protobuf {

// What the reader expected at the byte offset where a read failed.
enum class expectation : std::int32_t {
  none,
  buffer_size,    // a span of less than 2 GiB
  varint,         // a varint of at most 10 bytes that ends inside its message
  tag,            // a tag with a field number >= 1 and wire type 0, 1, 2 or 5
  length,         // a length-delimited payload that fits inside its message
  fixed32,        // 4 bytes inside the message
  fixed64,        // 8 bytes inside the message
  wire_type,      // the wire type the schema gives this field
  packed,         // a packed repeated field whose payload is whole values
  element_index,  // an index below the number of elements of a repeated field
  // Schema-level expectations (checked by the readers of a schema, e.g. frontend/onnx/schema.hpp):
  graph,             // a ModelProto with a graph
  value_name,        // a non-empty value name
  unique_value,      // a value name that no graph input, initializer or other node output already has
  graph_output,      // a graph output that a graph input, an initializer or a node provides
  tensor_data,       // tensor data of the size its dims and data type give
  tensor_size,       // a tensor of less than 2^31 bytes, with extents below 2^31
  attribute_type,    // an attribute of the type the operator's specification gives it
  shape,             // a tensor type with a shape
};

constexpr const char* name_of(expectation e) {
  switch (e) {
    case expectation::none: return "none";
    case expectation::buffer_size: return "a buffer of less than 2 GiB";
    case expectation::varint: return "a varint of at most 10 bytes inside its message";
    case expectation::tag: return "a field tag (field number >= 1, wire type 0, 1, 2 or 5)";
    case expectation::length: return "a length-delimited field that fits inside its message";
    case expectation::fixed32: return "a 32-bit value inside its message";
    case expectation::fixed64: return "a 64-bit value inside its message";
    case expectation::wire_type: return "the wire type the schema gives this field";
    case expectation::packed: return "a packed repeated field of whole values";
    case expectation::element_index: return "an element index below the field's element count";
    case expectation::graph: return "a ModelProto with a graph";
    case expectation::value_name: return "a non-empty value name";
    case expectation::unique_value: return "a value name that nothing else produces";
    case expectation::graph_output: return "a graph output produced by a graph input, an initializer or a node";
    case expectation::tensor_data: return "tensor data of the size its dims and data type give";
    case expectation::tensor_size: return "a tensor of less than 2^31 bytes";
    case expectation::attribute_type: return "an attribute of the type the operator gives it";
    case expectation::shape: return "a tensor type with a shape";
  }
  return "?";
}

// The first problem a reader found: the byte offset of the offending bytes and what was expected there.
using error = frontend_detail::reader_error<expectation>;
static_assert(std::has_unique_object_representations_v<error>);

// The wire types ONNX uses (3 and 4, groups, are refused).
enum class wire : std::uint32_t { varint = 0, i64 = 1, len = 2, i32 = 5 };

// A run of bytes: a message, a string, a packed payload.
struct span {
  std::uint32_t at = 0;
  std::uint32_t length = 0;
  constexpr std::uint32_t end() const { return at + length; }
  constexpr bool empty() const { return length == 0; }
};

// One record: where its tag is, its number and wire type, and its payload (a number or a span).
struct field {
  std::uint32_t tag_at = 0;
  std::uint32_t number = 0;  // 0: no field (absent, or the end of the message)
  wire type = wire::varint;
  std::uint64_t value = 0;  // varint, i32 and i64 payloads (i32/i64: the little-endian bits)
  span bytes{};             // len payloads
  constexpr bool present() const { return number != 0; }
};

class reader {
 public:
  constexpr reader(const char* data, std::size_t size) : data_(data), size_(size) {
    if (size > 0x7fffffffu) fail(0, expectation::buffer_size);
  }

  constexpr const char* data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool failed() const { return error_.failed(); }
  constexpr const protobuf::error& error() const { return error_; }
  constexpr span whole() const { return failed() ? span{} : span{0, static_cast<std::uint32_t>(size_)}; }

  // Records a problem found by a schema reader on top of this one (the first one wins).
  constexpr void fail(std::int64_t offset, expectation what) {
    if (!error_.failed()) error_ = protobuf::error{offset, what, 0};
  }

  constexpr std::uint32_t byte(std::uint32_t at) const {
    return at < size_ ? static_cast<std::uint32_t>(static_cast<unsigned char>(data_[at])) : 0u;
  }
  // fixed32 / fixed64 payloads (bounds checked here too; out of range reads 0).
  constexpr std::uint32_t load_u32(std::uint32_t at) const {
    return at < size_ && size_ - at >= 4 ? load_le<std::uint32_t>(data_, at) : 0u;
  }
  constexpr std::uint64_t load_u64(std::uint32_t at) const {
    return at < size_ && size_ - at >= 8 ? load_le<std::uint64_t>(data_, at) : 0u;
  }

  // A varint at `at` that must end before `end`; `at` moves past it. 0 and a failure when it does not.
  constexpr std::uint64_t varint(std::uint32_t& at, std::uint32_t end) {
    std::uint64_t value = 0;
    const std::uint32_t start = at;
    for (std::uint32_t k = 0; k < 10; ++k) {
      if (at >= end || at >= size_) break;
      const std::uint32_t b = byte(at++);
      value |= static_cast<std::uint64_t>(b & 0x7fu) << (7 * k);
      if ((b & 0x80u) == 0) return value;
    }
    fail(start, expectation::varint);
    at = end;
    return 0;
  }

  // The next record of `message` at `at` (which moves past it): false at the end or on a failure.
  constexpr bool next(const span& message, std::uint32_t& at, field& f) {
    f = field{};
    if (failed() || at >= message.end()) return false;
    const std::uint32_t end = message.end();
    const std::uint32_t tag_at = at;
    const std::uint64_t tag = varint(at, end);
    if (failed()) return false;
    const std::uint64_t number = tag >> 3;
    const auto type = static_cast<std::uint32_t>(tag & 7u);
    if (number == 0 || number > 0x1fffffffu || !(type == 0 || type == 1 || type == 2 || type == 5)) {
      fail(tag_at, expectation::tag);
      return false;
    }
    f.tag_at = tag_at;
    f.number = static_cast<std::uint32_t>(number);
    f.type = static_cast<wire>(type);
    switch (f.type) {
      case wire::varint: f.value = varint(at, end); break;
      case wire::i32:
        if (end - at < 4) return fail(at, expectation::fixed32), false;
        f.value = load_u32(at);
        at += 4;
        break;
      case wire::i64:
        if (end - at < 8) return fail(at, expectation::fixed64), false;
        f.value = load_u64(at);
        at += 8;
        break;
      case wire::len: {
        const std::uint32_t length_at = at;
        const std::uint64_t length = varint(at, end);
        if (failed()) return false;
        if (length > end - at) return fail(length_at, expectation::length), false;
        f.bytes = span{at, static_cast<std::uint32_t>(length)};
        at += static_cast<std::uint32_t>(length);
        break;
      }
    }
    return !failed();
  }

  // The last record of field `number` (a singular field: the last one wins); absent: number 0.
  constexpr field last(const span& message, std::uint32_t number) {
    field found{}, f{};
    for (std::uint32_t at = message.at; next(message, at, f);)
      if (f.number == number) found = f;
    return failed() ? field{} : found;
  }

  // A singular field that must have wire type `type` when present (else a failure at its tag).
  constexpr field last_of(const span& message, std::uint32_t number, wire type) {
    const field f = last(message, number);
    if (f.present() && f.type != type) {
      fail(f.tag_at, expectation::wire_type);
      return {};
    }
    return f;
  }
  constexpr span message_field(const span& message, std::uint32_t number) { return last_of(message, number, wire::len).bytes; }
  constexpr std::int64_t int_field(const span& message, std::uint32_t number, std::int64_t fallback = 0) {
    const field f = last_of(message, number, wire::varint);
    return f.present() ? static_cast<std::int64_t>(f.value) : fallback;
  }
  constexpr float float_field(const span& message, std::uint32_t number, float fallback = 0.0f) {
    const field f = last_of(message, number, wire::i32);
    return f.present() ? std::bit_cast<float>(static_cast<std::uint32_t>(f.value)) : fallback;
  }

  // The number of records of field `number`.
  constexpr std::uint32_t count(const span& message, std::uint32_t number) {
    std::uint32_t n = 0;
    field f{};
    for (std::uint32_t at = message.at; next(message, at, f);) n += f.number == number ? 1u : 0u;
    return failed() ? 0 : n;
  }

  // ------------------------------------------------------------------------------------------------
  // Repeated scalars, packed or not. `element` is the scalar's wire type (varint, i32 or i64); a packed
  // record holds back-to-back values of it.

  constexpr std::uint32_t repeated_count(const span& message, std::uint32_t number, wire element) {
    std::uint32_t n = 0;
    field f{};
    for (std::uint32_t at = message.at; next(message, at, f);) {
      if (f.number != number) continue;
      if (f.type == element) ++n;
      else if (f.type == wire::len) n += packed_count(f.bytes, element);
      else return fail(f.tag_at, expectation::wire_type), 0;
    }
    return failed() ? 0 : n;
  }

  // Element k (as its raw 64 bits: a varint's value, or the little-endian bits of an i32/i64).
  constexpr std::uint64_t repeated_at(const span& message, std::uint32_t number, wire element, std::uint32_t k) {
    std::uint32_t n = 0;
    field f{};
    for (std::uint32_t at = message.at; next(message, at, f);) {
      if (f.number != number) continue;
      if (f.type == element) {
        if (n++ == k) return f.value;
      } else if (f.type == wire::len) {
        const std::uint32_t here = packed_count(f.bytes, element);
        if (k - n < here) return packed_at(f.bytes, element, k - n);
        n += here;
      } else {
        fail(f.tag_at, expectation::wire_type);
        return 0;
      }
    }
    if (!failed()) fail(message.at, expectation::element_index);
    return 0;
  }

  // The values of a packed payload: their count (a failure when it is not whole values), and value k.
  constexpr std::uint32_t packed_count(const span& payload, wire element) {
    if (element == wire::i32 || element == wire::i64) {
      const std::uint32_t width = element == wire::i32 ? 4u : 8u;
      if (payload.length % width != 0) return fail(payload.at, expectation::packed), 0;
      return payload.length / width;
    }
    std::uint32_t n = 0;
    for (std::uint32_t at = payload.at; at < payload.end() && !failed(); ++n) varint(at, payload.end());
    return failed() ? 0 : n;
  }
  constexpr std::uint64_t packed_at(const span& payload, wire element, std::uint32_t k) {
    if (element == wire::i32) return load_u32(payload.at + 4 * k);
    if (element == wire::i64) return load_u64(payload.at + 8 * k);
    std::uint32_t at = payload.at;
    for (std::uint32_t i = 0; i < k && !failed(); ++i) varint(at, payload.end());
    return varint(at, payload.end());
  }

  // The characters of a span, viewing the bytes (no copy).
  constexpr std::string_view view(const span& s) const {
    return s.end() <= size_ ? std::string_view{data_ + s.at, s.length} : std::string_view{};
  }
  constexpr bool equals(const span& s, std::string_view text) const { return view(s) == text; }
  // A pointer to a position in the span (at <= size).
  constexpr const char* pointer(std::uint32_t at) const { return at <= size_ ? data_ + at : nullptr; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  protobuf::error error_{};
};

}  // namespace ctnn::protobuf
