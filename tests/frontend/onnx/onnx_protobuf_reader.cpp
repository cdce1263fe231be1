// The constexpr protobuf reader (frontend/protobuf.hpp) on hand-made messages, as static_asserts and the
// same checks at run time; then the ONNX importer on every prefix and on seeded byte flips of the test
// models, at run time under AddressSanitizer and UndefinedBehaviorSanitizer: bad bytes give a diagnostic,
// never a crash or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/frontend/onnx.hpp>
#include <ctnn/frontend/protobuf.hpp>

namespace pb = ctnn::protobuf;

namespace {

// field 1 varint 300 (ac 02), field 2 "hi", field 3 packed varints {1, 150, 3}, field 3 unpacked 7,
// field 4 fixed32 1.5f, field 5 fixed64 2
inline constexpr char message[] = "\x08\xac\x02\x12\x02hi\x1a\x04\x01\x96\x01\x03\x18\x07\x25\x00\x00\xc0\x3f"
                                  "\x29\x02\x00\x00\x00\x00\x00\x00\x00";
inline constexpr std::size_t message_size = sizeof message - 1;

constexpr bool reads_every_kind_of_field() {
  pb::reader r{message, message_size};
  const pb::span all = r.whole();
  return r.int_field(all, 1) == 300 && r.view(r.message_field(all, 2)) == "hi" &&
         r.repeated_count(all, 3, pb::wire::varint) == 4 && r.repeated_at(all, 3, pb::wire::varint, 1) == 150 &&
         r.repeated_at(all, 3, pb::wire::varint, 3) == 7 && r.float_field(all, 4) == 1.5f &&
         r.last(all, 5).value == 2 && r.count(all, 3) == 2 && !r.failed();
}
static_assert(reads_every_kind_of_field());

// The first error: where the reader was and what it expected.
constexpr pb::error error_of(const char* bytes, std::size_t size, std::uint32_t field) {
  pb::reader r{bytes, size};
  r.last(r.whole(), field);
  return r.error();
}
// A length that runs past the end (the length varint is at byte 4).
static_assert(error_of(message, 6, 2).what == pb::expectation::length && error_of(message, 6, 2).offset == 4);
// A varint cut short (byte 1 has its continuation bit set).
static_assert(error_of(message, 2, 1).what == pb::expectation::varint && error_of(message, 2, 1).offset == 1);
// Field number 0 and wire type 3 (groups) are refused at the tag.
static_assert(error_of("\x00\x01", 2, 1).what == pb::expectation::tag && error_of("\x00\x01", 2, 1).offset == 0);
static_assert(error_of("\x0b\x01", 2, 1).what == pb::expectation::tag);
// A fixed32 without its 4 bytes.
static_assert(error_of("\x25\x00\x00", 3, 4).what == pb::expectation::fixed32 && error_of("\x25\x00\x00", 3, 4).offset == 1);
// A 10-byte varint is the longest.
static_assert(error_of("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12, 1).what == pb::expectation::varint);
static_assert(!error_of("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11, 1).failed());
// The wrong wire type for a singular field.
constexpr bool wrong_wire_type() {
  pb::reader r{message, message_size};
  r.message_field(r.whole(), 1);
  return r.error().what == pb::expectation::wire_type && r.error().offset == 0;
}
static_assert(wrong_wire_type());

std::vector<char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct capacities {
  static constexpr std::size_t tensors = 512, nodes = 512, values = 256, relayouts = 256;
};
using result = ctnn::onnx::import_result<capacities::tensors, capacities::nodes, capacities::relayouts>;

// Imports at run time (heap: modules are large); the bounds must fit the test capacities.
bool import_fails(const std::vector<char>& bytes, std::size_t size) {
  const ctnn::onnx::import_counts b = ctnn::onnx::bounds(bytes.data(), size);
  if (b.tensors > capacities::tensors || b.nodes > capacities::nodes || b.values > capacities::values ||
      b.relayouts > capacities::relayouts)
    return true;
  auto r = std::make_unique<result>(
      ctnn::onnx::import<capacities::tensors, capacities::nodes, capacities::values, capacities::relayouts>(bytes.data(), size));
  return r->ir.error.failed();
}

}  // namespace

TEST_CASE("the protobuf reader's checks hold at run time too") {
  CHECK(reads_every_kind_of_field());
  CHECK(error_of(message, 6, 2).offset == 4);
  CHECK(wrong_wire_type());
}

TEST_CASE("every prefix and seeded byte flips of the test models import without undefined behaviour") {
  for (const char* model : {"conv_net", "branch_net", "mlp"}) {
    CAPTURE(model);
    const std::vector<char> bytes = read_file(std::string{CTNN_ONNX_TEST_DATA_DIR} + "/" + model + ".onnx");
    CHECK_FALSE(import_fails(bytes, bytes.size()));
    for (std::size_t size = 0; size < bytes.size(); size += 1 + size / 64) import_fails(bytes, size);
    std::mt19937 random{42};
    for (int round = 0; round < 300; ++round) {
      std::vector<char> flipped = bytes;
      for (int k = 0; k < 3; ++k) flipped[random() % flipped.size()] = static_cast<char>(random());
      import_fails(flipped, flipped.size());
    }
  }
}
