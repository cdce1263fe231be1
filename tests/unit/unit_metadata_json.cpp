// Unit tests of runtime/metadata_json.hpp: the JSON of small compiled modules is parsed back with a
// strict recursive-descent reader (written here, so that the test needs nothing else) and every field
// is compared with the module's constexpr values (compiled_v<Model>.metadata, .functions, the plan).
// The reader rejects anything that is not JSON (unbalanced brackets, bad escapes, raw control characters,
// trailing text, duplicate keys), so a successful parse is the validity check.
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/pipeline.hpp>
#include <ctnn/pass/plan_memory.hpp>
#include <ctnn/runtime/metadata_json.hpp>

#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;

// ---------------------------------------------------------------------------------------------------
// A strict JSON reader (RFC 8259).
struct json {
  enum class kind { null, boolean, number, string, array, object };
  kind type = kind::null;
  bool flag = false;
  std::string text;  // a string's value, or a number's source text
  std::vector<json> items;
  std::vector<std::string> names;  // an object's member names, in order
  std::vector<json> values;        // and their values (a vector of pairs would need json complete here)

  bool has(std::string_view key) const {
    for (const auto& k : names)
      if (k == key) return true;
    return false;
  }
  const json& operator[](std::string_view key) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == key) return values[i];
    FAIL("no member \"" << std::string{key} << "\"");
    static const json none{};
    return none;
  }
  const json& operator[](std::size_t i) const {
    REQUIRE(i < items.size());
    return items[i];
  }
  const std::vector<std::string>& keys() const { return names; }
  std::int64_t integer() const {
    REQUIRE(type == kind::number);
    std::int64_t v = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    REQUIRE_MESSAGE((error == std::errc{} && end == text.data() + text.size()), "not an integer: " << text);
    return v;
  }
  float real() const {
    REQUIRE(type == kind::number);
    return std::stof(text);
  }
  const std::string& str() const {
    REQUIRE(type == kind::string);
    return text;
  }
};

class json_reader {
 public:
  explicit json_reader(std::string_view text) : s_(text) {}

  // The whole text as one value, or nullopt (with `error()`) if it is not JSON.
  std::optional<json> parse() {
    json v;
    skip_space();
    if (!value(v, 0)) return std::nullopt;
    skip_space();
    if (at_ != s_.size()) return fail("text after the value");
    return v;
  }
  const std::string& error() const { return error_; }

 private:
  std::nullopt_t fail(const char* what) {
    if (error_.empty()) error_ = std::string{what} + " at offset " + std::to_string(at_);
    return std::nullopt;
  }
  bool failed(const char* what) {
    fail(what);
    return false;
  }
  void skip_space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\r' || s_[at_] == '\t')) ++at_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(at_, word.size()) != word) return failed("bad literal");
    at_ += word.size();
    return true;
  }
  bool value(json& v, int depth) {
    if (depth > 64) return failed("nesting too deep");
    if (at_ >= s_.size()) return failed("value expected");
    switch (s_[at_]) {
      case '{': return object(v, depth);
      case '[': return array(v, depth);
      case '"': v.type = json::kind::string; return string(v.text);
      case 't': v.type = json::kind::boolean, v.flag = true; return literal("true");
      case 'f': v.type = json::kind::boolean, v.flag = false; return literal("false");
      case 'n': v.type = json::kind::null; return literal("null");
      default: return number(v);
    }
  }
  bool object(json& v, int depth) {
    v.type = json::kind::object;
    ++at_;
    skip_space();
    if (at_ < s_.size() && s_[at_] == '}') return ++at_, true;
    for (;;) {
      skip_space();
      std::string key;
      if (at_ >= s_.size() || s_[at_] != '"' || !string(key)) return failed("member name expected");
      if (v.has(key)) return failed("duplicate member name");
      skip_space();
      if (at_ >= s_.size() || s_[at_] != ':') return failed("':' expected");
      ++at_;
      skip_space();
      json member;
      if (!value(member, depth + 1)) return false;
      v.names.push_back(std::move(key));
      v.values.push_back(std::move(member));
      skip_space();
      if (at_ < s_.size() && s_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < s_.size() && s_[at_] == '}') return ++at_, true;
      return failed("',' or '}' expected");
    }
  }
  bool array(json& v, int depth) {
    v.type = json::kind::array;
    ++at_;
    skip_space();
    if (at_ < s_.size() && s_[at_] == ']') return ++at_, true;
    for (;;) {
      skip_space();
      json item;
      if (!value(item, depth + 1)) return false;
      v.items.push_back(std::move(item));
      skip_space();
      if (at_ < s_.size() && s_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < s_.size() && s_[at_] == ']') return ++at_, true;
      return failed("',' or ']' expected");
    }
  }
  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  bool string(std::string& out) {
    ++at_;  // the opening quote
    for (;;) {
      if (at_ >= s_.size()) return failed("unterminated string");
      const char c = s_[at_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return failed("raw control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= s_.size()) return failed("unterminated escape");
      const char e = s_[at_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = 0;
          for (int i = 0; i < 4; ++i) {
            if (at_ >= s_.size() || hex_digit(s_[at_]) < 0) return failed("bad \\u escape");
            cp = cp * 16 + static_cast<std::uint32_t>(hex_digit(s_[at_++]));
          }
          append_utf8(out, cp);  // (surrogate pairs are not needed by these tests)
          break;
        }
        default: return failed("bad escape");
      }
    }
  }
  bool digits() {
    const std::size_t start = at_;
    while (at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9') ++at_;
    return at_ > start;
  }
  bool number(json& v) {
    const std::size_t start = at_;
    if (at_ < s_.size() && s_[at_] == '-') ++at_;
    if (at_ < s_.size() && s_[at_] == '0') {
      ++at_;
    } else if (!digits()) {
      return failed("value expected");
    }
    if (at_ < s_.size() && s_[at_] == '.') {
      ++at_;
      if (!digits()) return failed("digits expected after '.'");
    }
    if (at_ < s_.size() && (s_[at_] == 'e' || s_[at_] == 'E')) {
      ++at_;
      if (at_ < s_.size() && (s_[at_] == '+' || s_[at_] == '-')) ++at_;
      if (!digits()) return failed("digits expected in the exponent");
    }
    v.type = json::kind::number;
    v.text = std::string{s_.substr(start, at_ - start)};
    return true;
  }

  std::string_view s_;
  std::size_t at_ = 0;
  std::string error_;
};

TEST_CASE("the test's JSON reader accepts JSON and rejects what is not") {
  CHECK(json_reader{R"({"a": [1, -2.5e+3, true, null, "x\"\\\n\u0041"], "b": {}})"}.parse().has_value());
  const auto parsed = json_reader{R"({"s": "x\"\\\n\u0041\u00e9"})"}.parse();
  REQUIRE(parsed.has_value());
  CHECK((*parsed)["s"].str() == "x\"\\\nA\xC3\xA9");
  for (const char* bad : {"{", "[1,]", "{\"a\" 1}", "{\"a\": 1,}", "\"\x01\"", "\"\\x\"", "01", "1.", "[1] 2", "{\"a\": 1, \"a\": 2}",
                          "nul", "[\"a\"", "{\"a\": [1}"})
    CHECK_MESSAGE(!json_reader{bad}.parse().has_value(), bad);
}

// ---------------------------------------------------------------------------------------------------
template <class Module>
std::string metadata_json(const Module& m, bool* complete = nullptr) {
  std::string text;
  const bool ok = ctnn::write_metadata_json(m, [&text](std::string_view s) { text += s; });
  if (complete != nullptr) *complete = ok;
  return text;
}

json parse(const std::string& text) {
  json_reader reader{text};
  auto v = reader.parse();
  REQUIRE_MESSAGE(v.has_value(), reader.error() << "\n" << text);
  return *v;
}

void check_io(const json& j, const ctnn::io_info& io) {
  CHECK(j.keys() == std::vector<std::string>{"name", "shape", "dtype", "bytes", "quantization"});
  CHECK(j["name"].str() == io.label.view());
  REQUIRE(j["shape"].type == json::kind::array);
  REQUIRE(j["shape"].items.size() == static_cast<std::size_t>(io.dims.rank));
  for (std::int32_t d = 0; d < io.dims.rank; ++d) CHECK(j["shape"][static_cast<std::size_t>(d)].integer() == io.dims[d]);
  CHECK(j["dtype"].str() == ctnn::detail::json_dtype_name(io.type));
  CHECK(j["bytes"].integer() == io.bytes);
  if (io.scale == 0.0f) {
    CHECK(j["quantization"].type == json::kind::null);
  } else {
    REQUIRE(j["quantization"].type == json::kind::object);
    CHECK(j["quantization"]["scale"].real() == io.scale);  // shortest round-trip form: exact
    CHECK(j["quantization"]["zero_point"].integer() == io.zero_point);
  }
}

// Every field of the JSON against the module it was written from (seen through the printers' capacity-free
// view, so that this function is compiled once, not once per model), and against the planner's buffers.
void check_against_module(const ctnn::detail::module_view& m, const std::string& text, bool complete,
                          const std::vector<ctnn::memory::buffer_info>& buffers) {
  CHECK(complete);
  const json j = parse(text);
  const ctnn::executor_info& e = m.metadata;
  CHECK(j.keys() == std::vector<std::string>{"format", "version", "generator", "model", "inputs", "outputs", "pools",
                                             "functions", "totals", "memory_plan"});
  CHECK(j["format"].str() == "ctnn-metadata");
  CHECK(j["version"].integer() == ctnn::metadata_json_version);
  CHECK(j["generator"].str() == "ctnn " + std::to_string(ctnn::version_major) + "." + std::to_string(ctnn::version_minor) +
                                    "." + std::to_string(ctnn::version_patch));
  CHECK(j["model"].str() == m.model_name.view());
  CHECK(j["model"].str() == e.model.view());

  REQUIRE(j["inputs"].items.size() == static_cast<std::size_t>(e.input_count));
  for (std::int32_t i = 0; i < e.input_count; ++i) check_io(j["inputs"][static_cast<std::size_t>(i)], e.inputs[static_cast<std::size_t>(i)]);
  REQUIRE(j["outputs"].items.size() == static_cast<std::size_t>(e.output_count));
  for (std::int32_t o = 0; o < e.output_count; ++o) check_io(j["outputs"][static_cast<std::size_t>(o)], e.outputs[static_cast<std::size_t>(o)]);

  REQUIRE(j["pools"].items.size() == static_cast<std::size_t>(e.pool_count));
  for (std::int32_t p = 0; p < e.pool_count; ++p) {
    const json& pool = j["pools"][static_cast<std::size_t>(p)];
    const auto& info = e.pools[static_cast<std::size_t>(p)];
    CHECK(pool.keys() == std::vector<std::string>{"name", "bytes", "size_limit", "alignment", "read_only"});
    CHECK(pool["name"].str() == info.name);
    CHECK(pool["bytes"].integer() == info.bytes);
    if (info.size_limit < 0) CHECK(pool["size_limit"].type == json::kind::null);
    else CHECK(pool["size_limit"].integer() == info.size_limit);
    CHECK(pool["alignment"].integer() == info.alignment);
    REQUIRE(pool["read_only"].type == json::kind::boolean);
    CHECK(pool["read_only"].flag == info.read_only);
  }

  REQUIRE(j["functions"].items.size() == static_cast<std::size_t>(m.kernel_count));
  for (std::int32_t k = 0; k < m.kernel_count; ++k) {
    const json& f = j["functions"][static_cast<std::size_t>(k)];
    const ctnn::function_info& info = m.functions[static_cast<std::size_t>(k)];
    CHECK(f.keys() == std::vector<std::string>{"kernel", "op_kind", "calls", "workspace_bytes", "io_bytes", "constant_bytes"});
    CHECK(f["kernel"].integer() == k);
    CHECK(f["op_kind"].str() == ctnn::name_of(m.kernel(k).kind));
    CHECK(f["calls"].integer() == info.calls);
    CHECK(f["workspace_bytes"].integer() == info.workspace_bytes);
    CHECK(f["io_bytes"].integer() == info.io_bytes);
    CHECK(f["constant_bytes"].integer() == info.constant_bytes);
  }

  const json& totals = j["totals"];
  CHECK(totals.keys() == std::vector<std::string>{"arena_bytes", "liveness_lower_bound", "constant_bytes", "kernel_count", "call_count", "state_bytes"});
  CHECK(totals["arena_bytes"].integer() == m.arena_bytes);
  CHECK(totals["liveness_lower_bound"].integer() == m.liveness_lower_bound);
  CHECK(totals["state_bytes"].integer() == 0);  // no variable tensors
  CHECK(totals["constant_bytes"].integer() == e.constant_bytes);
  CHECK(totals["kernel_count"].integer() == e.kernel_count);
  CHECK(totals["call_count"].integer() == e.call_count);

  // The plan: one entry per buffer the planner placed (pass::arena_buffers), in tensor order, with the
  // planner's lifetimes.
  const json& plan = j["memory_plan"];
  CHECK(plan.keys() == std::vector<std::string>{"alignment", "peak_op", "pools", "tensors", "scratch", "in_place_calls",
                                                "skipped_copies", "bytes_not_copied"});
  // Every pool of the plan with its figures.
  REQUIRE(plan["pools"].items.size() == static_cast<std::size_t>(m.pool_count));
  for (std::int32_t p = 0; p < m.pool_count; ++p) {
    const json& pool = plan["pools"][static_cast<std::size_t>(p)];
    const auto& info = m.pools[static_cast<std::size_t>(p)];
    const auto& usage = m.pool_usage[static_cast<std::size_t>(p)];
    CHECK(pool.keys() == std::vector<std::string>{"index", "name", "bytes", "size_limit", "alignment", "read_only", "lower_bound", "peak_op"});
    CHECK(pool["index"].integer() == p);
    CHECK(pool["name"].str() == info.name);
    CHECK(pool["bytes"].integer() == usage.bytes);
    if (info.size_limit < 0) CHECK(pool["size_limit"].type == json::kind::null);
    else CHECK(pool["size_limit"].integer() == info.size_limit);
    CHECK(pool["alignment"].integer() == info.alignment);
    CHECK(pool["read_only"].flag == info.read_only);
    CHECK(pool["lower_bound"].integer() == usage.lower_bound);
    CHECK(pool["peak_op"].integer() == usage.peak_node);
  }
  // Each call's scratch, and the calls done in place.
  std::size_t scratch_rows = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& at = m.scratch[static_cast<std::size_t>(c)];
    if (at.offset < 0) continue;
    REQUIRE(scratch_rows < plan["scratch"].items.size());
    const json& row = plan["scratch"][scratch_rows++];
    CHECK(row.keys() == std::vector<std::string>{"call", "op", "pool", "pool_index", "offset", "bytes"});
    CHECK(row["call"].integer() == c);
    CHECK(row["pool_index"].integer() == at.pool);
    CHECK(row["offset"].integer() == at.offset);
    CHECK(row["bytes"].integer() == m.scratch_bytes[static_cast<std::size_t>(c)]);
  }
  CHECK(plan["scratch"].items.size() == scratch_rows);
  std::size_t in_place = 0, skipped = 0;
  std::int64_t not_copied = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const ctnn::kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    if (call.params.in_place == 1) CHECK(plan["in_place_calls"][in_place++].integer() == c);
    if (call.params.in_place == 2) {
      CHECK(plan["skipped_copies"][skipped++].integer() == c);
      not_copied += m.tensor_at(call.result).bytes();
    }
  }
  CHECK(plan["in_place_calls"].items.size() == in_place);
  CHECK(plan["skipped_copies"].items.size() == skipped);
  CHECK(plan["bytes_not_copied"].integer() == not_copied);
  CHECK(plan["alignment"].integer() == m.arena_alignment);
  CHECK(plan["peak_op"].integer() == m.peak_node);
  REQUIRE(plan["tensors"].items.size() == buffers.size());
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    const auto& buffer = buffers[b];
    const json& t = plan["tensors"][b];
    CHECK(t.keys() == std::vector<std::string>{"name", "tensor", "pool", "pool_index", "offset", "bytes", "first_use", "last_use"});
    CHECK(t["tensor"].integer() == buffer.tensor);
    CHECK(t["name"].str() == m.tensor_at(buffer.tensor).label.view());
    const auto pool = m.allocations[static_cast<std::size_t>(buffer.tensor)].pool;
    CHECK(t["pool_index"].integer() == pool);
    CHECK(t["pool"].str() == m.pools[static_cast<std::size_t>(pool)].name);
    CHECK(t["offset"].integer() == m.allocations[static_cast<std::size_t>(buffer.tensor)].offset);
    CHECK(t["bytes"].integer() == buffer.bytes);
    CHECK(t["first_use"].integer() == buffer.first_use);
    CHECK(t["last_use"].integer() == buffer.last_use);
  }
}
template <class Module>
void check_against_module(const Module& m) {
  std::int32_t count = 0;
  const auto buffers = ctnn::pass::arena_buffers(m, count);
  bool complete = false;
  const std::string text = metadata_json(m, &complete);
  check_against_module(ctnn::detail::view_of(m), text, complete, {buffers.begin(), buffers.begin() + count});
}

// ---------------------------------------------------------------------------------------------------
// "mini": conv 3x3 same + relu (2 -> 3 channels), max pool 2/2, flatten (a view), dense 12 -> 2.
inline constexpr float mini_conv_w[54] = {};
inline constexpr float mini_conv_b[3] = {};
inline constexpr float mini_fc_w[24] = {};
inline constexpr float mini_fc_b[2] = {};
using mini = dsl::named<"mini", dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                                 dsl::conv2d<mini_conv_w, mini_conv_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                                                 dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, dsl::flatten,
                                                 dsl::dense<mini_fc_w, mini_fc_b>>>;

// Two 1x1 convs of equal shapes share one kernel (one function with two calls).
inline constexpr float twin_w[4] = {1, 0, 0, 1}, twin_b[2] = {0, 0};
using twin = dsl::named<"twin", dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>, dsl::conv2d<twin_w, twin_b, dsl::kernel<1>>,
                                                 dsl::conv2d<twin_w, twin_b, dsl::kernel<1>>, dsl::global_avg_pool>>;

TEST_CASE("write_metadata_json: every field equals the module's (mini, worked out by hand too)") {
  const auto& m = ctnn::compiled_v<mini>;
  check_against_module(m);
  // The numbers themselves (see unit_printer.cpp for the reasoning): arena 240 = bound at op 1;
  // constants 216 + 12 + 96 + 8 = 332 bytes; conv out @0 (ops 0..1), pool out @192 (ops 1..2).
  const json j = parse(metadata_json(m));
  CHECK(j["model"].str() == "mini");
  CHECK(j["inputs"][0]["name"].str() == "input");
  CHECK(j["inputs"][0]["dtype"].str() == "float32");
  CHECK(j["inputs"][0]["bytes"].integer() == 128);
  CHECK(j["outputs"][0]["name"].str() == "dense_3");
  CHECK(j["outputs"][0]["shape"].items.size() == 2);
  CHECK(j["totals"]["arena_bytes"].integer() == 240);
  CHECK(j["totals"]["liveness_lower_bound"].integer() == 240);
  CHECK(j["totals"]["constant_bytes"].integer() == 332);
  CHECK(j["totals"]["kernel_count"].integer() == 3);
  CHECK(j["totals"]["call_count"].integer() == 3);
  CHECK(j["pools"][0]["name"].str() == "arena");
  CHECK(j["pools"][0]["bytes"].integer() == 240);
  CHECK(j["pools"][1]["name"].str() == "constants");
  CHECK(j["pools"][1]["bytes"].integer() == 332);
  CHECK(j["pools"][1]["read_only"].flag);
  CHECK(j["functions"][0]["op_kind"].str() == "conv2d");
  CHECK(j["functions"][0]["io_bytes"].integer() == 320);  // 128 in + 192 out
  CHECK(j["functions"][0]["constant_bytes"].integer() == 228);
  const json& tensors = j["memory_plan"]["tensors"];
  REQUIRE(tensors.items.size() == 2);
  CHECK(tensors[0]["name"].str() == "conv2d_0");
  CHECK(tensors[0]["offset"].integer() == 0);
  CHECK(tensors[0]["bytes"].integer() == 192);
  CHECK(tensors[0]["first_use"].integer() == 0);
  CHECK(tensors[0]["last_use"].integer() == 1);
  CHECK(tensors[1]["name"].str() == "max_pool_1");
  CHECK(tensors[1]["offset"].integer() == 192);
  CHECK(tensors[1]["last_use"].integer() == 2);  // the dense reads the flatten, a view of it
}

TEST_CASE("write_metadata_json: a shared kernel, several inputs and outputs, the shared test models") {
  check_against_module(ctnn::compiled_v<twin>);
  const json j = parse(metadata_json(ctnn::compiled_v<twin>));
  REQUIRE(j["functions"].items.size() == 2);
  CHECK(j["functions"][0]["calls"].integer() == 2);
  CHECK(j["functions"][1]["op_kind"].str() == "global_avg_pool");

  check_against_module(ctnn::compiled_v<ctnn_test::tiny_cnn>);
  check_against_module(ctnn::compiled_v<ctnn_test::small_graph>);
  check_against_module(ctnn::compiled_v<ctnn_test::two_io_graph>);
  const json io = parse(metadata_json(ctnn::compiled_v<ctnn_test::two_io_graph>));
  REQUIRE(io["inputs"].items.size() == 2);
  REQUIRE(io["outputs"].items.size() == 2);
  CHECK(io["inputs"][1]["name"].str() == "y");
  CHECK(io["outputs"][0]["name"].str() == "p");  // in outputs<"p", "t"> order
  CHECK(io["outputs"][1]["name"].str() == "t");
}

TEST_CASE("write_metadata_json: quantization, escaping, non-finite numbers") {
  auto m = ctnn::compiled_v<mini>;  // a run-time copy, changed by hand
  m.metadata.inputs[0].scale = 0.1f;
  m.metadata.inputs[0].zero_point = -128;
  m.metadata.outputs[0].scale = std::numeric_limits<float>::infinity();
  m.metadata.model = ctnn::name{"q\"b\\s\n\t\x01/\xC3\xA9"};  // quote, backslash, controls, slash, UTF-8
  m.model_name = m.metadata.model;
  const std::string text = metadata_json(m);
  const json j = parse(text);
  CHECK(j["model"].str() == "q\"b\\s\n\t\x01/\xC3\xA9");  // round trip
  CHECK(text.find(R"("model": "q\"b\\s\n\t\u0001/)") != std::string::npos);
  CHECK(text.find("\"quantization\": {\"scale\": 0.1, \"zero_point\": -128}") != std::string::npos);
  CHECK(j["inputs"][0]["quantization"]["scale"].real() == 0.1f);
  CHECK(j["outputs"][0]["quantization"]["scale"].type == json::kind::null);  // JSON has no infinity
  // Every byte below 0x20 is escaped, as \n-style or \u00XX.
  for (int c = 0; c < 0x20; ++c) {
    const char raw[] = {'a', static_cast<char>(c), 'b', '\0'};
    auto copy = ctnn::compiled_v<mini>;
    copy.model_name = ctnn::name{std::string_view{raw, 3}};
    const std::string escaped = metadata_json(copy);
    bool raw_control = false;
    for (char ch : escaped) raw_control = raw_control || (static_cast<unsigned char>(ch) < 0x20 && ch != '\n');
    CHECK_MESSAGE(!raw_control, "control character " << c);
    if (c != 0) CHECK(parse(escaped)["model"].str() == std::string_view(raw, 3));  // a name stops at NUL
  }
}

TEST_CASE("write_metadata_json: a failed module or one without metadata gives an error object") {
  using mismatched = dsl::named<"bad", dsl::graph<dsl::outputs<"s">,                                 //
                                                  dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 3>>,  //
                                                  dsl::node<"y", dsl::input<ctnn::f32, 1, 2, 2, 4>>,  //
                                                  dsl::node<"s", dsl::add<>, "x", "y">>>;
  bool complete = true;
  const std::string failed_text = metadata_json(ctnn::compiled_v<mismatched>, &complete);
  CHECK(!complete);
  // The whole text, as docs/metadata.md shows it.
  std::string expected = "{\n  \"format\": \"ctnn-metadata\",\n  \"version\": 4,\n  \"generator\": \"ctnn ";
  for (const int part : {ctnn::version_major, ctnn::version_minor}) {
    expected += std::to_string(part);
    expected += '.';
  }
  expected += std::to_string(ctnn::version_patch);  // appended, not one + chain (g++ 12 -O3: a false -Warray-bounds)
  expected += "\",\n  \"model\": \"bad\",\n  \"error\": {\"code\": \"input_shapes_differ\", \"op\": 0, "
              "\"op_kind\": \"add\", \"input_slot\": 1}\n}\n";
  CHECK(failed_text == expected);
  const json failed = parse(failed_text);
  CHECK(failed.keys() == std::vector<std::string>{"format", "version", "generator", "model", "error"});
  CHECK(failed["model"].str() == "bad");
  CHECK(failed["error"]["code"].str() == "input_shapes_differ");
  CHECK(failed["error"]["op"].integer() == 0);
  CHECK(failed["error"]["op_kind"].str() == "add");
  CHECK(failed["error"]["input_slot"].integer() == 1);  // the details that are not 0, by name

  // After plan_memory (stage 7) and select_kernels (stage 8): the function and executor metadata passes have not run yet.
  complete = true;
  const json early = parse(metadata_json(ctnn::stage_v<mini, ctnn::default_pipeline, 7>, &complete));
  CHECK(!complete);
  CHECK(early["error"]["code"].str() == "metadata_missing");
  CHECK(metadata_json(ctnn::stage_v<mini, ctnn::default_pipeline, 7>)
            .find("\n  \"error\": {\"code\": \"metadata_missing\", \"missing_facts\": [\"function_metadata\", "
                  "\"executor_metadata\"]}\n}\n") != std::string::npos);
  REQUIRE(early["error"]["missing_facts"].items.size() == 2);
  CHECK(early["error"]["missing_facts"][0].str() == "function_metadata");
  CHECK(early["error"]["missing_facts"][1].str() == "executor_metadata");
  // Stage 10 has all three; aot_lower_main (stage 11) changes nothing the JSON shows.
  complete = false;
  const std::string stage9 = metadata_json(ctnn::stage_v<mini, ctnn::default_pipeline, 10>, &complete);
  CHECK(complete);
  CHECK(stage9 == metadata_json(ctnn::compiled_v<mini>));
}

TEST_CASE("write_metadata_json: layout (two-space indentation, one line per array element)") {
  const std::string text = metadata_json(ctnn::compiled_v<twin>);
  CHECK(text.rfind("{\n  \"format\": \"ctnn-metadata\",\n  \"version\": 4,\n", 0) == 0);
  CHECK(text.find("\n  \"functions\": [\n    {\"kernel\": 0, \"op_kind\": \"conv2d\", \"calls\": 2, \"workspace_bytes\": 0, "
                  "\"io_bytes\": 256, \"constant_bytes\": 24},\n") != std::string::npos);
  CHECK(text.substr(text.size() - 3) == "\n}\n");
}

}  // namespace
