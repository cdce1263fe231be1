// The constexpr FlatBuffers reader (frontend/flatbuffers.hpp) on hand-laid buffers: every check is a
// constexpr function, asserted at compile time and run again at run time. Then the bounds errors of
// truncated and corrupted bytes, and the importer on every prefix and on every single-byte corruption of
// the generated test models at run time (this test is built with AddressSanitizer and UBSan: a read
// outside the span or any undefined behaviour fails it).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite.hpp>
#include <ctnn/ir/little_endian.hpp>
#include <ctnn/models/branch_net.hpp>
#include <ctnn/models/conv_net.hpp>
#include <ctnn/models/int8_net.hpp>
#include <ctnn/pass/infer_types.hpp>

namespace fb = ctnn::flatbuffers;
using fb::expectation;

// ---------------------------------------------------------------------------------------------------
// A hand-laid buffer (140 bytes; positions chosen here, values written little-endian):
//
//     0  root uoffset -> 40                   4  file identifier "FBT1"
//     8  vtable VR of R: size 20, table size 34; fields 0 @4, 1 @8, 2 @12, 3 @32, 4 @16, 5 @20, 6 @24, 7 @33
//    28  vtable VT (shared by T, U, T2): size 6, table size 8; field 0 @4
//    40  table R: soffset 32 (-> VR)
//        44 f0 float 1.5; 48 f1 -> string S; 52 f2 -> table T; 56 f4 -> union value U; 60 f5 -> vector V;
//        64 f6 int64 -5; 72 f3 union type 2; 73 f7 bool true
//    76  string S: length 2, "hi", 0
//    88  table T: soffset 60 (-> VT); 92 f0 int32 42
//    96  table U: soffset 68 (-> VT); 100 f0 int32 7
//   104  vector V of 2 tables: 108 -> T2, 112 -> T3
//   116  table T2: soffset 88 (-> VT); 120 f0 int32 100
//   124  table T3: soffset -8 (its vtable VT3 follows it, at 132); 128 f0 int32 200
//   132  vtable VT3: size 6, table size 8; field 0 @4
constexpr std::size_t size_b = 140;
using buffer = std::array<char, size_b>;

constexpr void put(buffer& b, std::size_t at, std::uint64_t value, std::size_t bytes) {
  for (std::size_t k = 0; k < bytes; ++k) b[at + k] = static_cast<char>(static_cast<unsigned char>(value >> (8 * k)));
}
constexpr void put16(buffer& b, std::size_t at, std::uint32_t v) { put(b, at, v, 2); }
constexpr void put32(buffer& b, std::size_t at, std::int64_t v) { put(b, at, static_cast<std::uint32_t>(v), 4); }

constexpr buffer make_buffer() {
  buffer b{};
  put32(b, 0, 40);
  b[4] = 'F', b[5] = 'B', b[6] = 'T', b[7] = '1';
  put16(b, 8, 20), put16(b, 10, 34);
  const std::uint32_t fields[8] = {4, 8, 12, 32, 16, 20, 24, 33};
  for (std::size_t i = 0; i < 8; ++i) put16(b, 12 + 2 * i, fields[i]);
  put16(b, 28, 6), put16(b, 30, 8), put16(b, 32, 4);
  put32(b, 40, 40 - 8);
  put32(b, 44, static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(1.5f)));
  put32(b, 48, 76 - 48), put32(b, 52, 88 - 52), put32(b, 56, 96 - 56), put32(b, 60, 104 - 60);
  put(b, 64, static_cast<std::uint64_t>(std::int64_t{-5}), 8);
  b[72] = 2, b[73] = 1;
  put32(b, 76, 2), b[80] = 'h', b[81] = 'i', b[82] = 0;
  put32(b, 88, 88 - 28), put32(b, 92, 42);
  put32(b, 96, 96 - 28), put32(b, 100, 7);
  put32(b, 104, 2), put32(b, 108, 116 - 108), put32(b, 112, 124 - 112);
  put32(b, 116, 116 - 28), put32(b, 120, 100);
  put32(b, 124, 124 - 132), put32(b, 128, 200);
  put16(b, 132, 6), put16(b, 134, 8), put16(b, 136, 4);
  return b;
}
constexpr buffer good = make_buffer();

constexpr bool reads_everything(const buffer& b, std::size_t size) {
  fb::reader r{b.data(), size};
  const fb::table root = r.root();
  if (!root.present() || root.at != 40 || !r.has_identifier("FBT1") || r.has_identifier("TFL3")) return false;
  if (r.scalar<float>(root, 0, 0.0f) != 1.5f) return false;
  if (r.view(r.string_field(root, 1)) != "hi") return false;
  if (r.scalar<std::int32_t>(r.table_field(root, 2), 0, 0) != 42) return false;
  if (r.scalar<std::int32_t>(r.union_field(root, 3, 4, 2), 0, 0) != 7) return false;
  const fb::vector v = r.vector_field(root, 5, 4);
  if (v.length != 2 || r.scalar<std::int32_t>(r.table_at(v, 0), 0, 0) != 100) return false;
  if (r.scalar<std::int32_t>(r.table_at(v, 1), 0, 0) != 200) return false;  // vtable after its table
  if (r.scalar<std::int64_t>(root, 6, 0) != -5 || !r.scalar<bool>(root, 7, false)) return false;
  // Absent fields read as the schema's default: past the vtable's end, and entry 0.
  if (r.scalar<std::int32_t>(root, 8, 99) != 99 || r.scalar<std::int32_t>(r.table_field(root, 2), 1, -3) != -3) return false;
  if (r.table_field(r.table_field(root, 2), 1).present() || r.vector_field(root, 9, 4).present()) return false;
  if (r.vector_field(root, 9, 4).length != 0 || r.string_field(root, 10).present()) return false;
  return !r.failed();
}
static_assert(reads_everything(good, size_b));

// The first error of a read on a corrupted copy: its byte offset and what was expected.
struct outcome {
  std::int64_t offset;
  expectation what;
};

template <class Read>
constexpr outcome error_after(buffer b, std::size_t size, Read read) {
  fb::reader r{b.data(), size};
  read(r);
  return {r.error().offset, r.error().what};
}

constexpr auto read_all = [](fb::reader& r) {
  const fb::table root = r.root();
  r.scalar<float>(root, 0, 0.0f);
  r.string_field(root, 1);
  r.table_field(root, 2);
  const fb::vector v = r.vector_field(root, 5, 4);
  r.table_at(v, 0);
  r.table_at(v, 1);
};

template <class Change>
constexpr outcome corrupted(Change change, std::size_t size = size_b) {
  buffer b = good;
  change(b);
  return error_after(b, size, read_all);
}

constexpr bool is(outcome o, std::int64_t offset, expectation what) { return o.offset == offset && o.what == what; }

constexpr bool bounds_errors() {
  bool ok = true;
  ok = ok && is(error_after(good, 7, read_all), 0, expectation::buffer_size);
  ok = ok && is(corrupted([](buffer& b) { put32(b, 0, 1000); }), 0, expectation::root_offset);
  ok = ok && is(corrupted([](buffer& b) { put32(b, 0, 4); }), 0, expectation::root_offset);  // inside the header
  ok = ok && is(corrupted([](buffer& b) { put32(b, 40, -1000); }), 40, expectation::table);  // vtable past the end
  ok = ok && is(corrupted([](buffer& b) { put32(b, 40, 1000); }), 40, expectation::table);   // vtable before 0
  ok = ok && is(corrupted([](buffer& b) { put16(b, 8, 21); }), 8, expectation::vtable);      // odd vtable size
  ok = ok && is(corrupted([](buffer& b) { put16(b, 8, 2); }), 8, expectation::vtable);       // no header
  ok = ok && is(corrupted([](buffer& b) { put16(b, 10, 200); }), 8, expectation::vtable);    // table past the end
  ok = ok && is(corrupted([](buffer& b) { put16(b, 12, 33); }), 12, expectation::field);     // float beyond the table
  ok = ok && is(corrupted([](buffer& b) { put16(b, 12, 2); }), 12, expectation::field);      // inside the soffset
  ok = ok && is(corrupted([](buffer& b) { put32(b, 48, 0x7fffff00); }), 48, expectation::offset);
  ok = ok && is(corrupted([](buffer& b) { put32(b, 48, 0); }), 48, expectation::offset);     // points to itself
  ok = ok && is(corrupted([](buffer& b) { put32(b, 76, 1000); }), 76, expectation::string);  // length past the end
  ok = ok && is(corrupted([](buffer& b) { b[82] = 'x'; }), 76, expectation::string);         // no terminating 0
  ok = ok && is(corrupted([](buffer& b) { put32(b, 104, 0x40000001); }), 104, expectation::vector);  // length x 4 overflows 32 bits
  ok = ok && is(corrupted([](buffer& b) { put32(b, 112, 1000); }), 112, expectation::offset);  // element offset
  ok = ok && is(corrupted([](buffer& b) { put32(b, 124, -100); }), 124, expectation::table);   // T3's vtable past the end
  // Truncated: the vector's elements, then its tables, lie past the end.
  ok = ok && is(corrupted([](buffer&) {}, 110), 104, expectation::vector);
  ok = ok && is(corrupted([](buffer&) {}, 130), 124, expectation::table);
  // A union whose type names another member; an element index past the end; the first error wins.
  ok = ok && is(error_after(good, size_b, [](fb::reader& r) { r.union_field(r.root(), 3, 4, 1); }), 72, expectation::union_type);
  ok = ok && is(error_after(good, size_b, [](fb::reader& r) { r.element<std::int32_t>(r.vector_field(r.root(), 5, 4), 2); }), 104,
                expectation::element_index);
  ok = ok && is(error_after(good, size_b, [](fb::reader& r) {
                  r.element<std::int32_t>(r.vector_field(r.root(), 5, 4), 2);
                  r.fail(1, expectation::subgraph);
                }), 104, expectation::element_index);
  return ok;
}
static_assert(bounds_errors());

// After an error every read returns an empty value (0, absent, empty), so callers check once per step.
constexpr bool empty_after_error() {
  buffer b = good;
  put32(b, 0, 1000);
  fb::reader r{b.data(), size_b};
  const fb::table root = r.root();
  return r.failed() && !root.present() && r.scalar<std::int32_t>(root, 0, 5) == 5 && r.vector_field(root, 5, 4).length == 0 &&
         r.element<std::int32_t>(fb::vector{104, 2, 4}, 0) == 0 && r.error().offset == 0;
}
static_assert(empty_after_error());

// ---------------------------------------------------------------------------------------------------
// The TFLite model view on truncated and corrupted models, at compile time.
namespace data = ctnn::models::ctnn_model_data;

constexpr ctnn::diagnostic import_error(const char* bytes, std::size_t size) {
  return ctnn::tflite::import<32, 16>(bytes, size).error;
}
constexpr bool malformed_at(const ctnn::diagnostic& d, std::int64_t offset, expectation what) {
  return d.code == ctnn::code_of(ctnn::frontend_error::tflite_malformed_model) && d.byte_offset == offset &&
         d.reason == static_cast<std::int64_t>(what);
}
static_assert(!import_error(data::conv_net_bytes, data::conv_net_size).failed());
static_assert(malformed_at(import_error(data::conv_net_bytes, 0), 0, expectation::buffer_size));
static_assert(malformed_at(import_error(data::conv_net_bytes, 8), 0, expectation::root_offset));
static_assert(malformed_at(import_error(data::conv_net_bytes + 1, data::conv_net_size - 1), 4, expectation::file_identifier));
// Cut in the middle: some offset, vector or table of the file lies past the new end.
static_assert(import_error(data::conv_net_bytes, data::conv_net_size / 2).code ==
              ctnn::code_of(ctnn::frontend_error::tflite_malformed_model));
static_assert(import_error(data::conv_net_bytes, data::conv_net_size / 2).byte_offset < static_cast<std::int64_t>(data::conv_net_size / 2));

// ---------------------------------------------------------------------------------------------------
// Run time.

// ---------------------------------------------------------------------------------------------------
// The one little-endian decoder (ir/little_endian.hpp) that the readers, the module's per-channel scales,
// the executor's constant copies and the tools use: every width, signed values, float32 and float64, at an
// offset, in constant evaluation and at run time.
constexpr char le_bytes[] = {'\x01', '\x02', '\x03', '\x04', '\x05', '\x06', '\x07', '\x88',  // 0x8807060504030201
                             '\x00', '\x00', '\x80', '\x3f',                                  // 1.0f
                             '\x18', '\x2d', '\x44', '\x54', '\xfb', '\x21', '\x09', '\x40',  // pi, float64
                             '\xfe', '\xff', '\xff', '\xff'};                                 // -2 as int32
static_assert(ctnn::load_le<std::uint8_t>(le_bytes, 7) == 0x88 && ctnn::load_le<std::int8_t>(le_bytes, 7) == -120);
static_assert(ctnn::load_le<std::uint16_t>(le_bytes, 0) == 0x0201 && ctnn::load_le<std::int16_t>(le_bytes, 6) == -30713);
static_assert(ctnn::load_le<std::uint32_t>(le_bytes, 1) == 0x05040302u);
static_assert(ctnn::load_le<std::uint64_t>(le_bytes, 0) == 0x8807060504030201ull);
static_assert(ctnn::load_le<std::int64_t>(le_bytes, 0) == static_cast<std::int64_t>(0x8807060504030201ull));
static_assert(ctnn::load_le<float>(le_bytes, 8) == 1.0f && ctnn::load_le<double>(le_bytes, 12) == 3.141592653589793);
static_assert(ctnn::load_le<std::int32_t>(le_bytes, 20) == -2);
// Whole tensors: packed, strided (every other int16) and repeated (stride 0, a broadcast).
constexpr bool decodes_elements() {
  std::uint16_t packed[4]{}, strided[2]{}, repeated[3]{};
  ctnn::load_le_elements(le_bytes, 0, 4, 2, packed);
  ctnn::load_le_elements(le_bytes, 0, 2, 4, strided);
  ctnn::load_le_elements(le_bytes, 8, 3, 0, repeated);
  // int8 (the weights' own loop): packed from an offset, every third byte, and one byte repeated.
  std::int8_t bytes_packed[3]{}, bytes_strided[3]{}, bytes_repeated[2]{};
  ctnn::load_le_elements(le_bytes, 5, 3, 1, bytes_packed);
  ctnn::load_le_elements(le_bytes, 1, 3, 3, bytes_strided);
  ctnn::load_le_elements(le_bytes, 7, 2, 0, bytes_repeated);
  return packed[0] == 0x0201 && packed[3] == 0x8807 && strided[0] == 0x0201 && strided[1] == 0x0605 &&
         repeated[0] == 0 && repeated[2] == 0 && bytes_packed[0] == 6 && bytes_packed[1] == 7 &&
         bytes_packed[2] == -120 && bytes_strided[0] == 2 && bytes_strided[1] == 5 && bytes_strided[2] == -120 &&
         bytes_repeated[0] == -120 && bytes_repeated[1] == -120;
}
static_assert(decodes_elements());

TEST_CASE("load_le: the same values at run time, whatever the host's byte order") {
  const char* bytes = le_bytes;  // not a constant expression
  CHECK(ctnn::load_le<std::uint32_t>(bytes, 1) == 0x05040302u);
  CHECK(ctnn::load_le<std::uint64_t>(bytes, 0) == 0x8807060504030201ull);
  CHECK(ctnn::load_le<std::int16_t>(bytes, 6) == -30713);
  CHECK(ctnn::load_le<float>(bytes, 8) == 1.0f);
  CHECK(ctnn::load_le<double>(bytes, 12) == 3.141592653589793);
  CHECK(ctnn::load_le<std::int32_t>(bytes, 20) == -2);
  CHECK(decodes_elements());
  float floats[2]{};
  ctnn::load_le_elements(bytes, 8, 2, 0, floats);
  CHECK((floats[0] == 1.0f && floats[1] == 1.0f));
}

TEST_CASE("the reader reads a hand-laid buffer at run time as at compile time") {
  CHECK(reads_everything(good, size_b));
  CHECK(bounds_errors());
  CHECK(empty_after_error());
  // Every prefix: either the whole buffer or a bounds error, never a read outside it (ASan).
  for (std::size_t size = 0; size < size_b; ++size) {
    CAPTURE(size);
    const auto copy = std::make_unique<char[]>(size + 1);  // exactly `size` bytes to read (+1: never 0)
    for (std::size_t k = 0; k < size; ++k) copy[k] = good[k];
    fb::reader r{copy.get(), size};
    read_all(r);
    CHECK(r.failed() == (size < 138));  // VT3, the last object read, ends at 138
  }
}

namespace {

// Imports bytes that live in a heap block of exactly `size` bytes (ASan sees any read past them).
ctnn::diagnostic import_exact(const char* bytes, std::size_t size) {
  const auto copy = std::make_unique<char[]>(size == 0 ? 1 : size);
  for (std::size_t k = 0; k < size; ++k) copy[k] = bytes[k];
  // A corrupted count may exceed the capacities: the import then reports it (no write past them).
  static_cast<void>(ctnn::tflite::count(copy.get(), size));
  auto m = std::make_unique<ctnn::module<64, 32>>(ctnn::tflite::import<64, 32>(copy.get(), size));
  if (m->error.failed()) return m->error;
  // What the importer accepts is sane for the passes too: infer_types on it has no undefined behaviour
  // (its own diagnostics, e.g. for shapes that a corrupted file makes inconsistent, are fine).
  *m = ctnn::pass::infer_types::run(*m);
  return {};
}

void check_prefixes_and_flips(const char* bytes, std::size_t size) {
  REQUIRE_FALSE(import_exact(bytes, size).failed());
  // Prefixes: all fail except those that keep everything up to the last data byte (the file ends with
  // up to 15 bytes of padding).
  for (std::size_t cut = 0; cut < size; ++cut) {
    CAPTURE(cut);
    const ctnn::diagnostic d = import_exact(bytes, cut);
    if (cut + 16 <= size) CHECK(d.code == ctnn::code_of(ctnn::frontend_error::tflite_malformed_model));
    if (d.code == ctnn::code_of(ctnn::frontend_error::tflite_malformed_model))
      CHECK(d.byte_offset < static_cast<std::int64_t>(cut > 8 ? cut : 8));
  }
  // Each byte flipped (two patterns): the import succeeds or reports a problem; never undefined behaviour.
  std::vector<char> copy(bytes, bytes + size);
  std::size_t rejected = 0;
  for (std::size_t at = 0; at < size; ++at) {
    for (const unsigned char pattern : {0xffu, 0x40u}) {
      copy[at] = static_cast<char>(static_cast<unsigned char>(bytes[at]) ^ pattern);
      rejected += import_exact(copy.data(), size).failed() ? 1 : 0;
      copy[at] = bytes[at];
    }
  }
  // Seeded random corruption: 1 to 4 bytes overwritten with random values, 4000 times (xorshift32).
  std::uint32_t state = 0x9E3779B9u ^ static_cast<std::uint32_t>(size);
  const auto next = [&state] {
    state ^= state << 13, state ^= state >> 17, state ^= state << 5;
    return state;
  };
  for (int round = 0; round < 4000; ++round) {
    const std::uint32_t writes = 1 + next() % 4;
    for (std::uint32_t w = 0; w < writes; ++w) copy[next() % size] = static_cast<char>(next() >> 24);
    rejected += import_exact(copy.data(), size).failed() ? 1 : 0;
    copy.assign(bytes, bytes + size);
  }
  MESSAGE("corrupted copies rejected: " << rejected << " of " << 2 * size + 4000);
  CHECK(rejected > 0);
}

}  // namespace

TEST_CASE("truncated and corrupted models are diagnosed, never read out of bounds") {
  check_prefixes_and_flips(data::conv_net_bytes, data::conv_net_size);
  check_prefixes_and_flips(data::branch_net_bytes, data::branch_net_size);
  check_prefixes_and_flips(data::int8_net_bytes, data::int8_net_size);
}
