// create_executor_metadata on int8 models and on a plan with two pools: every input and output carries
// its quantization (module::metadata, net::input<I>/output<I>, the JSON), and the pools are the plan's, by
// name, with the bytes they use and their limits. The int8 models: a small one built by hand (two int8
// inputs, two outputs) and, with CTNN_MLPERF_KWS, MLPerf Tiny's KWS (../shared/models/mlperf-tiny).
#include <cstdint>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/runtime/metadata_json.hpp>

#include "test_modules.hpp"

#ifdef CTNN_MLPERF_KWS
#include <ctnn/models/kws.hpp>
#endif

namespace {

using namespace ctnn_test;

template <class Module>
std::string metadata_json(const Module& m) {
  std::string text;
  CHECK(ctnn::write_metadata_json(m, [&text](std::string_view s) { text += s; }));
  return text;
}

// The JSON text of one io entry's quantization, as the writer formats it.
std::string quantization_text(float scale, std::int32_t zero_point) {
  std::string text;
  auto append = [&text](std::string_view s) { text += s; };
  ctnn::detail::json_writer j{ctnn::detail::sink_ref{append}};
  j.begin_object(true);
  j.key("scale");
  j.real(scale);
  j.member("zero_point", zero_point);
  j.end_object();
  return text;
}

// Every input and output of a compiled int8 net: the metadata, the executor's members and the JSON agree
// with the tensor's quantization, which is a real one (scale > 0).
template <class Net>
void check_quantized_io(std::int32_t expected_inputs, std::int32_t expected_outputs) {
  constexpr auto& m = Net::module;
  const ctnn::executor_info& e = m.metadata;
  REQUIRE(e.input_count == expected_inputs);
  REQUIRE(e.output_count == expected_outputs);
  const std::string json = metadata_json(m);
  for (std::int32_t i = 0; i < e.input_count + e.output_count; ++i) {
    const bool input = i < e.input_count;
    const std::int32_t k = input ? i : i - e.input_count;
    const ctnn::io_info& io = input ? e.inputs[static_cast<std::size_t>(k)] : e.outputs[static_cast<std::size_t>(k)];
    const ctnn::tensor& t = input ? m.input_tensor(k) : m.output_tensor(k);
    CAPTURE(i);
    CHECK(io.type == ctnn::dtype::i8);
    CHECK(io.scale > 0.0f);
    CHECK(io.scale == t.quant.scale);
    CHECK(io.zero_point == t.quant.zero_point);
    CHECK(json.find("\"quantization\": " + quantization_text(io.scale, io.zero_point)) != std::string::npos);
  }
  CHECK(json.find("\"quantization\": null") == std::string::npos);
  static_assert(Net::template input<0>::quantized && Net::template output<0>::quantized);
  static_assert(Net::template input<0>::scale == m.metadata.inputs[0].scale);
  static_assert(Net::template input<0>::zero_point == m.metadata.inputs[0].zero_point);
  static_assert(Net::template output<0>::scale == m.metadata.outputs[0].scale);
  static_assert(Net::template output<0>::zero_point == m.metadata.outputs[0].zero_point);
}

constexpr ctnn::quantization quantized(float scale, std::int32_t zero_point) {
  ctnn::quantization q{};
  q.scale = scale;
  q.zero_point = zero_point;
  return q;
}

// x [1,4] and y [1,4], int8 -> add(x, y) [1,4] -> relu [1,4]; outputs: the sum and the relu. Every tensor
// has its own scale and zero point, so a writer that mixed them up would show.
struct two_int8_io {
  static constexpr auto build() {
    ctnn::module<4, 2> m{};
    m.model_name = ctnn::name{"two_int8_io"};
    const auto add = [&](ctnn::tensor_role role, ctnn::quantization quant, const char* label) {
      ctnn::tensor t{};
      t.label = ctnn::name{label};
      t.dims = ctnn::make_shape(1, 4), t.type = ctnn::dtype::i8, t.role = role, t.quant = quant;
      return m.add_tensor(t);
    };
    const std::int32_t x = add(ctnn::tensor_role::input, quantized(0.02f, -5), "x");
    const std::int32_t y = add(ctnn::tensor_role::input, quantized(0.03f, 7), "y");
    const std::int32_t sum = add(ctnn::tensor_role::output, quantized(0.05f, -11), "sum");
    const std::int32_t relu = add(ctnn::tensor_role::output, quantized(0.04f, -128), "relu");
    m.nodes[0] = ctnn::node{ctnn::op_kind::add, ctnn::name{"add"}, {}, {x, y}, 2, sum};
    m.nodes[1] = ctnn::node{ctnn::op_kind::relu, ctnn::name{"relu"}, {}, {sum}, 1, relu};
    m.node_count = 2;
    m.tensor_at(sum).producer = 0, m.tensor_at(relu).producer = 1;
    m.inputs = {x, y}, m.input_count = 2;
    m.outputs = {sum, relu}, m.output_count = 2;
    m.tensor_at(x).io_index = 0, m.tensor_at(y).io_index = 1, m.tensor_at(sum).io_index = 0, m.tensor_at(relu).io_index = 1;
    return m;
  }
};
using int8_net = ctnn::compile<two_int8_io>;

TEST_CASE("executor metadata: every input and output of an int8 model carries its scale and zero point") {
  check_quantized_io<int8_net>(2, 2);
  static_assert(int8_net::input<1>::scale == 0.03f && int8_net::input<1>::zero_point == 7);
  static_assert(int8_net::output<1>::scale == 0.04f && int8_net::output<1>::zero_point == -128);
  const std::string json = metadata_json(int8_net::module);
  CHECK(json.find(R"("name": "y", "shape": [1, 4], "dtype": "int8", "bytes": 4, "quantization": {"scale": 0.03, "zero_point": 7})") !=
        std::string::npos);
  // One pool by default ("arena", no limit), then the constants the kernels read.
  constexpr auto& e = int8_net::module.metadata;
  static_assert(e.pool_count == 2);
  static_assert(std::string_view{e.pools[0].name} == "arena" && e.pools[0].bytes == int8_net::arena_bytes &&
                e.pools[0].size_limit == -1 && !e.pools[0].read_only);
  static_assert(std::string_view{e.pools[1].name} == "constants" && e.pools[1].bytes == e.constant_bytes && e.pools[1].read_only);
}

TEST_CASE("executor metadata: a float model is not quantized") {
  using net = ctnn::compile<tiny_cnn>;
  static_assert(!net::input<0>::quantized && net::input<0>::scale == 0.0f && net::input<0>::zero_point == 0);
  CHECK(net::module.metadata.inputs[0].scale == 0.0f);
  CHECK(metadata_json(net::module).find("\"quantization\": null") != std::string::npos);
}

// tiny_cnn in two pools (unit_memory_plan.cpp works the plan out: dense alone in "dtcm", 16 B; conv and
// pool in "sram", 720 B), plus a read-only "flash" pool for the weights.
using two_pools_net = ctnn::compile<tiny_cnn, ctnn::pools<ctnn::pool<"dtcm", 256>, ctnn::pool<"sram", 1024>,
                                                          ctnn::read_only_pool<"flash", 4096>>>;

TEST_CASE("executor metadata: the plan's pools, by name, with the bytes they use and their limits") {
  constexpr auto& m = two_pools_net::module;
  constexpr auto& e = m.metadata;
  static_assert(e.pool_count == 3);  // a read-only pool holds the constants: no extra "constants" entry
  static_assert(std::string_view{e.pools[0].name} == "dtcm" && e.pools[0].bytes == 16 && e.pools[0].size_limit == 256);
  static_assert(std::string_view{e.pools[1].name} == "sram" && e.pools[1].bytes == 720 && e.pools[1].size_limit == 1024);
  static_assert(std::string_view{e.pools[2].name} == "flash" && e.pools[2].read_only && e.pools[2].size_limit == 4096 &&
                e.pools[2].bytes == e.constant_bytes && e.constant_bytes > 0);
  for (std::int32_t p = 0; p < e.pool_count; ++p) {
    CAPTURE(p);
    CHECK(e.pools[static_cast<std::size_t>(p)].bytes == m.pool_usage[static_cast<std::size_t>(p)].bytes);
    CHECK(e.pools[static_cast<std::size_t>(p)].alignment == m.pools[static_cast<std::size_t>(p)].alignment);
  }
  const std::string json = metadata_json(m);
  CHECK(json.find(R"({"name": "dtcm", "bytes": 16, "size_limit": 256, "alignment": 16, "read_only": false})") != std::string::npos);
  CHECK(json.find(R"({"name": "sram", "bytes": 720, "size_limit": 1024, "alignment": 16, "read_only": false})") != std::string::npos);
  CHECK(json.find(R"("name": "flash", "bytes": )" + std::to_string(e.constant_bytes) + R"(, "size_limit": 4096)") != std::string::npos);
}

#ifdef CTNN_MLPERF_KWS
using kws_net = ctnn::compile<ctnn::models::kws>;
TEST_CASE("executor metadata: MLPerf Tiny KWS (int8), quantized input and output") {
  check_quantized_io<kws_net>(1, 1);
  // The README's interface: input scale 0.5847, zero point 83; output 1/256, -128.
  CHECK(kws_net::input<0>::scale == 0.584702909f);
  CHECK(kws_net::input<0>::zero_point == 83);
  CHECK(kws_net::output<0>::scale == 0.00390625f);
  CHECK(kws_net::output<0>::zero_point == -128);
  CHECK(kws_net::module.metadata.pools[0].bytes == kws_net::arena_bytes);
}
#endif

}  // namespace
