// fuzz_mutator_test: the structure-aware mutators of the fuzz targets (structured_mutator.hpp) on every
// seed model of the build tree (tests/fuzz/CMakeLists.txt copies them to CTNN_FUZZ_SEED_DIR). For each
// seed, a number of mutations with different seeds (the byte-mutator fallback off, so that every call is a
// structured one unless the seed does not parse) must
//   (a) stay within max_size (also when max_size is the input's size),
//   (b) mostly leave a file that parses at the top level (ctnn's FlatBuffers reader: the root table;
//       ctnn's protobuf reader: every top-level record),
//   (c) change the file, an in-place edit at one of the field locations the parse found,
//   (d) for protobuf: keep every message consistent: each mutated file, and a chain of mutations of it,
//       is walked completely with ctnn's protobuf reader (every record of every message the ONNX schema
//       nests: graph, nodes, attributes, tensors, value infos, types, shapes, dims), the length-changing
//       edits included. A seed that is itself inconsistent (a fuzz regression input, malformed on purpose)
//       is left out of (d): an edit cannot repair a message it does not touch.
// Also: the same seed gives the same mutation, and the cross-over stays within its bounds and parses.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/protobuf.hpp>

#include "structured_mutator.hpp"

namespace {

namespace sm = ctnn_fuzz::structured;
namespace pb = ctnn::protobuf;

struct seed_file {
  std::string name;
  std::vector<std::uint8_t> bytes;
};

std::vector<seed_file> seeds(const char* format) {
  std::vector<seed_file> out;
  std::error_code error;
  const std::filesystem::path dir = std::filesystem::path{CTNN_FUZZ_SEED_DIR} / format;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (!entry.is_regular_file(error)) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    seed_file f{entry.path().filename().string(), {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}};
    if (!f.bytes.empty()) out.push_back(std::move(f));
  }
  std::sort(out.begin(), out.end(), [](const seed_file& a, const seed_file& b) { return a.name < b.name; });
  return out;
}

std::size_t fallbacks = 0;
// A stand-in for LLVMFuzzerMutate: one flipped byte.
std::size_t flip_byte(std::uint8_t* data, std::size_t size, std::size_t) {
  ++fallbacks;
  if (size > 0) data[size / 2] ^= 0x5a;
  return size;
}

const char* chars(const std::vector<std::uint8_t>& bytes) { return reinterpret_cast<const char*>(bytes.data()); }

bool tflite_top_level(const std::vector<std::uint8_t>& bytes) {
  ctnn::flatbuffers::reader r{chars(bytes), bytes.size()};
  const ctnn::flatbuffers::table root = r.root();
  return !r.failed() && root.present() && r.has_identifier("TFL3");
}

bool onnx_top_level(const std::vector<std::uint8_t>& bytes) {
  pb::reader r{chars(bytes), bytes.size()};
  const pb::span whole = r.whole();
  pb::field f{};
  for (std::uint32_t at = whole.at; r.next(whole, at, f);) {
  }
  return !r.failed();
}

// The ONNX messages and the fields that nest them (FORMATS.md §3).
enum class message { none, model, opset, graph, node, attribute, tensor, value_info, type, type_tensor, shape, dim };
message nested(message m, std::uint32_t number) {
  switch (m) {
    case message::model: return number == 7 ? message::graph : number == 8 ? message::opset : message::none;
    case message::graph:
      if (number == 1) return message::node;
      if (number == 5) return message::tensor;
      if (number == 11 || number == 12 || number == 13) return message::value_info;
      return message::none;
    case message::node: return number == 5 ? message::attribute : message::none;
    case message::attribute:
      if (number == 5 || number == 10) return message::tensor;
      if (number == 6 || number == 11) return message::graph;
      if (number == 14 || number == 15) return message::type;
      return message::none;
    case message::value_info: return number == 2 ? message::type : message::none;
    case message::type: return number == 1 || number == 8 ? message::type_tensor : message::none;
    case message::type_tensor: return number == 2 ? message::shape : message::none;
    case message::shape: return number == 1 ? message::dim : message::none;
    default: return message::none;
  }
}

// Every record of `m` and of every message nested in it, with ctnn's protobuf reader. A field number 0 is
// no field (protobuf numbers start at 1): a seed with one (a fuzz regression input) is inconsistent.
bool walk(pb::reader& r, const pb::span& m, message type, int depth) {
  pb::field f{};
  for (std::uint32_t at = m.at; r.next(m, at, f);) {
    if (f.number == 0) return false;
    const message sub = nested(type, f.number);
    if (f.type == pb::wire::len && sub != message::none && depth < 32 && !walk(r, f.bytes, sub, depth + 1)) return false;
  }
  return !r.failed();
}
bool onnx_walk(const std::vector<std::uint8_t>& bytes) {
  pb::reader r{chars(bytes), bytes.size()};
  return walk(r, r.whole(), message::model, 0);
}

bool in_place(sm::edit e) {
  return e == sm::edit::fb_scalar || e == sm::edit::fb_copy || e == sm::edit::fb_swap || e == sm::edit::fb_truncate ||
         e == sm::edit::fb_data || e == sm::edit::pb_varint || e == sm::edit::pb_fixed || e == sm::edit::pb_bytes;
}

struct tally {
  std::size_t mutations = 0, structured = 0, parsed = 0, changed = 0, in_place = 0, at_field = 0, resized = 0,
              resized_consistent = 0, consistent = 0, seeds = 0, seeds_parsing = 0, seeds_inconsistent = 0,
              checked = 0;
  std::map<std::string, std::size_t> kinds;
};

constexpr unsigned mutations_per_seed = 48;

tally run(const char* format, bool tflite) {
  tally t;
  const std::vector<seed_file> files = seeds(format);
  for (std::size_t s = 0; s < files.size(); ++s) {
    const std::vector<std::uint8_t>& original = files[s].bytes;
    std::vector<sm::location> locations;
    const bool parses = tflite ? sm::tflite_locations(original.data(), original.size(), locations)
                               : sm::onnx_locations(original.data(), original.size(), locations);
    ++t.seeds;
    if (!parses) continue;
    ++t.seeds_parsing;
    const bool seed_consistent = tflite || onnx_walk(original);
    if (!seed_consistent) ++t.seeds_inconsistent;
    for (unsigned k = 0; k < mutations_per_seed; ++k) {
      // Every fourth call without room to grow (libFuzzer's -len_control starts there).
      const std::size_t max_size = k % 4 == 0 ? original.size() : original.size() + 4096;
      std::vector<std::uint8_t> bytes(max_size, 0xee);
      std::copy(original.begin(), original.end(), bytes.begin());
      sm::report what;
      const unsigned seed = static_cast<unsigned>(s * 7919 + k * 104729 + 1);
      const std::size_t size = sm::mutate(bytes.data(), original.size(), max_size, seed, &flip_byte,
                                          tflite ? sm::format::tflite : sm::format::onnx, 0, &what);
      ++t.mutations;
      const std::string edit_name = sm::name_of(what.last);
      INFO(files[s].name << " seed " << seed << " edit " << edit_name);
      REQUIRE(size <= max_size);  // (a)
      REQUIRE(size > 0);
      bytes.resize(size);
      if (what.fell_back) continue;
      ++t.structured;
      ++t.kinds[sm::name_of(what.last)];
      if (tflite ? tflite_top_level(bytes) : onnx_top_level(bytes)) ++t.parsed;  // (b)
      if (bytes != original) ++t.changed;  // (c)
      if (size == original.size() && what.edits == 1 && in_place(what.last)) {
        ++t.in_place;
        std::size_t first = 0;
        while (first < size && bytes[first] == original[first]) ++first;
        const bool at_field = std::any_of(locations.begin(), locations.end(), [&](const sm::location& l) {
          return first >= l.at && first < std::size_t{l.at} + l.width;
        });
        if (at_field) ++t.at_field;
        CHECK_MESSAGE(at_field, "the first changed byte, " << first << ", is at no field location");
      }
      if (!tflite && seed_consistent) {  // (d)
        ++t.checked;
        const bool consistent = onnx_walk(bytes);
        if (consistent) ++t.consistent;
        if (what.resized) {
          ++t.resized;
          if (consistent) ++t.resized_consistent;
          CHECK_MESSAGE(consistent, "a length-changing edit left an inconsistent message");
        }
      }
    }
  }
  std::printf("%s: %zu seeds (%zu parse), %zu mutations, %zu structured, %zu parse at the top level, %zu changed, "
              "%zu/%zu in-place edits at a field, %zu/%zu resized consistent (%zu inconsistent seeds left out)\n",
              format, t.seeds, t.seeds_parsing, t.mutations, t.structured, t.parsed, t.changed, t.at_field, t.in_place,
              t.resized_consistent, t.resized, t.seeds_inconsistent);
  for (const auto& [name, count] : t.kinds) std::printf("  %-20s %zu\n", name.c_str(), count);
  return t;
}

}  // namespace

TEST_CASE("the TFLite mutator edits fields of every seed and keeps the files parseable") {
  const tally t = run("tflite", true);
  REQUIRE(t.seeds > 0);
  CHECK(t.seeds_parsing * 10 >= t.seeds * 9);
  CHECK(t.structured * 10 >= t.mutations * 9);
  CHECK(t.parsed * 2 > t.structured);          // (b): > 50 %
  CHECK(t.changed * 100 >= t.structured * 99);  // (c): two edits may undo each other
  CHECK(t.in_place > 0);
  CHECK(t.at_field == t.in_place);
  CHECK(t.kinds.count("fb_add_field") == 1);
  CHECK(t.kinds.count("fb_swap") == 1);
}

TEST_CASE("the ONNX mutator edits fields of every seed and fixes up the enclosing lengths") {
  const tally t = run("onnx", false);
  REQUIRE(t.seeds > 0);
  CHECK(t.seeds_parsing * 10 >= t.seeds * 9);
  CHECK(t.structured * 10 >= t.mutations * 9);
  CHECK(t.parsed * 2 > t.structured);  // (b)
  CHECK(t.changed * 100 >= t.structured * 99);  // (c)
  CHECK(t.in_place > 0);
  CHECK(t.at_field == t.in_place);
  CHECK(t.resized * 4 > t.structured);  // the splices are exercised
  CHECK(t.resized_consistent == t.resized);  // (d)
  CHECK(t.seeds_inconsistent * 10 < t.seeds);  // malformed seeds are the exception
  CHECK(t.checked * 10 >= t.structured * 9);
  CHECK(t.consistent == t.checked);
}

TEST_CASE("chains of ONNX mutations keep every message consistent") {
  // libFuzzer stacks mutations (-mutate_depth) and mutates its outputs again: 64 rounds per seed.
  std::size_t rounds = 0;
  for (const seed_file& f : seeds("onnx")) {
    if (f.bytes.size() > 65536 || !onnx_walk(f.bytes)) continue;
    std::vector<std::uint8_t> bytes = f.bytes;
    const std::size_t max_size = f.bytes.size() + 8192;
    for (unsigned k = 0; k < 64; ++k) {
      const std::size_t size = bytes.size();
      bytes.resize(max_size);
      sm::report what;
      const std::size_t new_size = sm::mutate(bytes.data(), size, max_size, k * 31 + 7, nullptr, sm::format::onnx, 0, &what);
      REQUIRE(new_size <= max_size);
      bytes.resize(new_size);
      if (what.fell_back) break;  // (does not happen on a consistent file)
      ++rounds;
      const std::string edit_name = sm::name_of(what.last);
      INFO(f.name << " round " << k << " edit " << edit_name);
      REQUIRE(onnx_walk(bytes));
    }
  }
  CHECK(rounds > 0);
}

TEST_CASE("corrupted inputs: the mutators stay in bounds (what libFuzzer hands them after byte mutations)") {
  // Each seed with bytes overwritten, a range zeroed or the tail cut, then mutated and cross-over'd: the
  // lenient parses must not read outside the input (AddressSanitizer in the sanitizer configuration).
  std::uint64_t state = 0x2545f4914f6cdd1dull;
  const auto next = [&state] { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  std::size_t structured = 0;
  for (const char* format : {"tflite", "onnx"}) {
    const std::vector<seed_file> files = seeds(format);
    for (std::size_t s = 0; s < files.size(); ++s) {
      if (files[s].bytes.size() > 65536) continue;
      for (unsigned k = 0; k < 24; ++k) {
        std::vector<std::uint8_t> bytes = files[s].bytes;
        switch (k % 3) {
          case 0:
            for (unsigned n = 0; n < 1 + k / 3; ++n) bytes[next() % bytes.size()] = static_cast<std::uint8_t>(next());
            break;
          case 1: {
            const std::size_t at = next() % bytes.size();
            std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                      bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), at + 1 + next() % 16)), 0xff);
            break;
          }
          default: bytes.resize(1 + next() % bytes.size()); break;
        }
        const std::size_t size = bytes.size(), max_size = size + (k % 2 == 0 ? 0 : 256);
        bytes.resize(max_size);
        sm::report what;
        const std::size_t new_size = sm::mutate(bytes.data(), size, max_size, k + 1000 * static_cast<unsigned>(s),
                                                &flip_byte, sm::format::both, 0, &what);
        REQUIRE(new_size <= max_size);
        if (!what.fell_back) ++structured;
        std::vector<std::uint8_t> out(max_size);
        const std::size_t crossed = sm::cross_over(bytes.data(), new_size, files[(s + 1) % files.size()].bytes.data(),
                                                   files[(s + 1) % files.size()].bytes.size(), out.data(), max_size, k,
                                                   sm::format::both);
        REQUIRE(crossed <= max_size);
      }
    }
  }
  CHECK(structured > 0);  // many corrupted files still parse leniently
}

TEST_CASE("the same seed gives the same mutation") {
  for (const char* format : {"tflite", "onnx"}) {
    const std::vector<seed_file> files = seeds(format);
    REQUIRE(!files.empty());
    const std::vector<std::uint8_t>& original = files[files.size() / 2].bytes;
    for (unsigned seed = 1; seed < 50; ++seed) {
      std::vector<std::uint8_t> a(original.size() + 1024), b(original.size() + 1024);
      std::copy(original.begin(), original.end(), a.begin());
      std::copy(original.begin(), original.end(), b.begin());
      const std::size_t na = sm::mutate(a.data(), original.size(), a.size(), seed, &flip_byte, sm::format::both);
      const std::size_t nb = sm::mutate(b.data(), original.size(), b.size(), seed, &flip_byte, sm::format::both);
      REQUIRE(na == nb);
      CHECK(std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(na), b.begin()));
    }
  }
}

TEST_CASE("the cross-over stays within max_size and keeps the files parseable") {
  for (const bool tflite : {true, false}) {
    const std::vector<seed_file> files = seeds(tflite ? "tflite" : "onnx");
    REQUIRE(files.size() >= 2);
    std::size_t crossed = 0, parsed = 0;
    for (unsigned k = 0; k < 400; ++k) {
      const seed_file& one = files[k % files.size()];
      const seed_file& two = files[(k * 7 + 3) % files.size()];
      const std::size_t max_out = one.bytes.size() + (k % 2 == 0 ? 0 : 4096);
      std::vector<std::uint8_t> out(max_out);
      sm::report what;
      const std::size_t size = sm::cross_over(one.bytes.data(), one.bytes.size(), two.bytes.data(), two.bytes.size(),
                                              out.data(), max_out, k, sm::format::both, &what);
      REQUIRE(size <= max_out);
      if (size == 0) continue;
      ++crossed;
      out.resize(size);
      if (tflite ? tflite_top_level(out) : onnx_top_level(out) && onnx_walk(out)) ++parsed;
    }
    CHECK(crossed > 20);
    CHECK(parsed * 10 >= crossed * 9);
  }
}
