// The modules of the generated ONNX models (static_asserts on the import, compile time), and the
// diagnostics of the rejected ones without their compile error (the import alone), with their words
// (ctnn::onnx::describe, run time); operands that nothing or a later node produces, imported at compile
// time and at run time.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/frontend/onnx.hpp>
#include <ctnn/models/bad_attribute.hpp>
#include <ctnn/models/bad_cycle.hpp>
#include <ctnn/models/bad_dangling_operand.hpp>
#include <ctnn/models/bad_dynamic_shape.hpp>
#include <ctnn/models/bad_integer_types.hpp>
#include <ctnn/models/bad_malformed.hpp>
#include <ctnn/models/bad_output_shape.hpp>
#include <ctnn/models/conv_nchw_output.hpp>
#include <ctnn/models/bad_unsupported_op.hpp>
#include <ctnn/models/bad_weights.hpp>
#include <ctnn/models/conv_net.hpp>
#include <ctnn/models/conv_net_dynamic_batch.hpp>
#include <ctnn/models/dynamic_shape_by_input.hpp>
#include <ctnn/models/dynamic_shape_by_name.hpp>
#include <ctnn/models/mlp.hpp>

namespace models = ctnn::models;
namespace onnx = ctnn::onnx;

// An empty constant is re-laid out without walking its other extents: [2^27, 0] would exceed the constant
// evaluation's step limit (the fuzz regression onnx_import/empty_constant_long_walk.onnx timed out so).
static_assert([] {
  onnx::relayout r{};
  r.rank = 2;
  r.dims = {134217728, 0};
  r.strides = {0, 1};
  float out[1]{7.0f};
  onnx::relayout_values(r, nullptr, out);
  return out[0] == 7.0f;
}());
using ctnn::op_kind;

// The import's module of a model type, without building it (build() would raise the compile error).
template <class Model>
constexpr const auto& imported = Model::imported;

template <class Module>
constexpr std::int32_t count_of(const Module& m, op_kind kind) {
  std::int32_t n = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) n += m.node_at(i).kind == kind ? 1 : 0;
  return n;
}

// conv_net: NCHW at the interface, a transpose moves the input to NHWC, and the weights that change order
// point at arrays computed at compile time.
constexpr const auto& conv_net = imported<models::conv_net>;
static_assert(!conv_net.error.failed());
static_assert(conv_net.input_count == 1 && conv_net.input_tensor(0).dims == ctnn::make_shape(1, 3, 8, 8));
static_assert(conv_net.output_count == 1 && conv_net.output_tensor(0).dims == ctnn::make_shape(1, 5));
static_assert(count_of(conv_net, op_kind::conv2d) == 2 && count_of(conv_net, op_kind::depthwise_conv2d) == 1);
// Two transposes: the input to NHWC, and the pooled [1, 1, 1, C] back to NCHW for Flatten (a view).
static_assert(count_of(conv_net, op_kind::transpose) == 2);
static_assert(count_of(conv_net, op_kind::batch_norm) == 1 && count_of(conv_net, op_kind::relu6) == 1);
static_assert(count_of(conv_net, op_kind::max_pool) == 1 && count_of(conv_net, op_kind::global_avg_pool) == 1);
static_assert(count_of(conv_net, op_kind::dense) == 1 && count_of(conv_net, op_kind::softmax) == 1);
constexpr bool transposes_the_input(const auto& m) {
  const ctnn::node& first = m.node_at(0);
  return first.kind == op_kind::transpose && first.inputs[0] == m.inputs[0] && first.attrs.transpose.perm[0] == 0 &&
         first.attrs.transpose.perm[1] == 2 && first.attrs.transpose.perm[2] == 3 && first.attrs.transpose.perm[3] == 1 &&
         m.tensor_at(first.output).dims == ctnn::make_shape(1, 8, 8, 3);
}
static_assert(transposes_the_input(conv_net));
// The depthwise weights [8, 1, 3, 3] read as [1, 3, 3, 8]: element (0, y, x, c) = stored (c, 0, y, x).
constexpr bool depthwise_weights_relaid(const auto& m) {
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const ctnn::node& n = m.node_at(i);
    if (n.kind != op_kind::depthwise_conv2d) continue;
    const ctnn::tensor& w = m.tensor_at(n.inputs[1]);
    const char* stored = w.data.bytes;  // the initializer's raw_data in the file
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x)
        for (int c = 0; c < 8; ++c) {
          const int at = 4 * (c * 9 + y * 3 + x);
          const auto bits = static_cast<std::uint32_t>(static_cast<unsigned char>(stored[at])) |
                            static_cast<std::uint32_t>(static_cast<unsigned char>(stored[at + 1])) << 8 |
                            static_cast<std::uint32_t>(static_cast<unsigned char>(stored[at + 2])) << 16 |
                            static_cast<std::uint32_t>(static_cast<unsigned char>(stored[at + 3])) << 24;
          if (w.data.f32[(y * 3 + x) * 8 + c] != std::bit_cast<float>(bits)) return false;
        }
    return n.attrs.depth_multiplier == 2 && w.dims == ctnn::make_shape(1, 3, 3, 8);
  }
  return false;
}
static_assert(depthwise_weights_relaid(conv_net));

// mlp: rank-2 tensors keep their ONNX shapes; the second output is a copy.
constexpr const auto& mlp = imported<models::mlp>;
static_assert(!mlp.error.failed() && mlp.output_count == 2 && mlp.outputs[0] != mlp.outputs[1]);
static_assert(count_of(mlp, op_kind::dense) == 2 && count_of(mlp, op_kind::batch_norm) == 1 && count_of(mlp, op_kind::add) == 1);

// The rejected models: their diagnostics.
template <class Model>
constexpr ctnn::diagnostic error_of = imported<Model>.error;
constexpr auto code = [](onnx::onnx_error e) { return onnx::code_of(e); };
static_assert(error_of<models::bad_unsupported_op>.code == code(onnx::onnx_error::unsupported_operator) &&
              error_of<models::bad_unsupported_op>.node == 1 &&
              error_of<models::bad_unsupported_op>.operator_code == static_cast<std::int64_t>(onnx::op_type::Det));
static_assert(error_of<models::bad_attribute>.code == code(onnx::onnx_error::unsupported_attribute) &&
              error_of<models::bad_attribute>.node == 1 &&
              error_of<models::bad_attribute>.attribute == static_cast<std::int64_t>(onnx::attribute::group) &&
              error_of<models::bad_attribute>.expected.dims[0] == 3);
static_assert(error_of<models::bad_malformed>.code == code(onnx::onnx_error::malformed_model) &&
              error_of<models::bad_malformed>.byte_offset == 14 &&
              error_of<models::bad_malformed>.reason == static_cast<std::int64_t>(ctnn::protobuf::expectation::length));
// Symbolic input dimensions (dim_bindings.hpp). bad_dynamic_shape: x [N, F]; N, the first axis, is bound to 1,
// F is bound by nothing: the diagnostic names the input, axis 1 and the dim_param "F".
static_assert(error_of<models::bad_dynamic_shape>.code == code(onnx::onnx_error::symbolic_dimension) &&
              error_of<models::bad_dynamic_shape>.actual == ctnn::make_shape(-1, -1) &&
              error_of<models::bad_dynamic_shape>.axis == 1 && error_of<models::bad_dynamic_shape>.op_name == ctnn::name{"F"} &&
              error_of<models::bad_dynamic_shape>.reason == static_cast<std::int64_t>(onnx::dimension_problem::unbound));
// Bound: ONNX_DIMS F=4 (N = 1 by default); ONNX_DIMS "x=[3,4]" N=7 (the input's shape wins over the name).
static_assert(!imported<models::dynamic_shape_by_name>.error.failed() &&
              imported<models::dynamic_shape_by_name>.input_tensor(0).dims == ctnn::make_shape(1, 4) &&
              imported<models::dynamic_shape_by_name>.output_tensor(0).dims == ctnn::make_shape(1, 4));
static_assert(!imported<models::dynamic_shape_by_input>.error.failed() &&
              imported<models::dynamic_shape_by_input>.input_tensor(0).dims == ctnn::make_shape(3, 4));
// conv_net with a symbolic batch: conv_net's module (the declared symbolic output shape is inferred).
static_assert(!imported<models::conv_net_dynamic_batch>.error.failed() &&
              imported<models::conv_net_dynamic_batch>.input_tensor(0).dims == ctnn::make_shape(1, 3, 8, 8) &&
              imported<models::conv_net_dynamic_batch>.output_tensor(0).dims == conv_net.output_tensor(0).dims &&
              imported<models::conv_net_dynamic_batch>.node_count == conv_net.node_count);

// A graph output's declared static extent that differs from the computed one: y declared [N, 5], computed [1, 4].
static_assert(error_of<models::bad_output_shape>.code == code(onnx::onnx_error::output_shape_differs) &&
              error_of<models::bad_output_shape>.axis == 1 && error_of<models::bad_output_shape>.expected == ctnn::make_shape(1, 4) &&
              error_of<models::bad_output_shape>.actual == ctnn::make_shape(-1, 5));

// The bindings text: entries NAME=N and INPUT=[D0,...] separated by spaces, ';' or ','; the last one wins.
static_assert(onnx::detail::bound_extent("batch=2 seq=16", "seq") == 16 && onnx::detail::bound_extent("b=2;b=3", "b") == 3);
static_assert(onnx::detail::bound_extent("batch=2", "bat") == -1 && onnx::detail::bound_extent("batch=2", "") == -1);
static_assert(onnx::detail::bound_extent("x=[1,2] n=5", "x") == -1 && onnx::detail::bound_extent("x=[1,2],n=5", "n") == 5);
static_assert([] {
  ctnn::shape s{};
  return onnx::detail::bound_input_shape("n=1, input=[1,3,32,32]", "input", s) && s == ctnn::make_shape(1, 3, 32, 32) &&
         !onnx::detail::bound_input_shape("n=1", "n", s);
}());
static_assert(onnx::malformed_dim_binding("") == -1 && onnx::malformed_dim_binding(" a=1;b=[2,3] ") == -1);
static_assert(onnx::malformed_dim_binding("a=1 b") == 4 && onnx::malformed_dim_binding("a=0") == 0 &&
              onnx::malformed_dim_binding("=3") == 0 && onnx::malformed_dim_binding("x=[1,,2]") == 0 &&
              onnx::malformed_dim_binding("x=[1,2") == 0 && onnx::malformed_dim_binding("a=99999999999") == 0 &&
              onnx::malformed_dim_binding("x=[1,1,1,1,1,1,1]") == 0);
// conv_nchw_output: the conv's NHWC result goes back to NCHW through a transpose that writes the output.
constexpr bool transposes_the_output(const auto& m) {
  if (m.error.failed() || m.output_count != 1) return false;
  const ctnn::tensor& out = m.output_tensor(0);
  if (out.dims != ctnn::make_shape(1, 2, 3, 3) || out.producer < 0) return false;
  const ctnn::node& back = m.node_at(out.producer);
  return back.kind == op_kind::transpose && back.attrs.transpose.perm[0] == 0 && back.attrs.transpose.perm[1] == 3 && back.attrs.transpose.perm[2] == 1 &&
         back.attrs.transpose.perm[3] == 2 && m.tensor_at(back.inputs[0]).dims == ctnn::make_shape(1, 3, 3, 2);
}
static_assert(transposes_the_output(imported<models::conv_nchw_output>));
static_assert(error_of<models::bad_weights>.code == code(onnx::onnx_error::unsupported_operand) &&
              error_of<models::bad_weights>.node == 0 && error_of<models::bad_weights>.input_slot == 1);
// Plain integer arithmetic takes one element type: a uint8 + int8 Add names its second operand.
static_assert(error_of<models::bad_integer_types>.code == code(onnx::onnx_error::integer_arithmetic) &&
              error_of<models::bad_integer_types>.node == 0 && error_of<models::bad_integer_types>.input_slot == 1);
// A failed import keeps the interface it read (code calling run() adds no error of its own).
static_assert(imported<models::bad_unsupported_op>.input_count == 1);

template <class Model>
std::string words() {
  std::string text;
  onnx::describe(imported<Model>.error, Model::bytes.data(), Model::bytes.size(), [&](std::string_view s) { text += s; });
  return text;
}

TEST_CASE("ctnn::onnx::describe words the diagnostics as the compile errors do") {
  CHECK(words<models::conv_net>() == "ok\n");
  CHECK(words<models::bad_unsupported_op>().find("does not support (the node below") != std::string::npos);
  CHECK(words<models::bad_unsupported_op>().find("\n  node 1 (Det)\n") != std::string::npos);
  CHECK(words<models::bad_attribute>().find("node 1 (Conv), attribute group = 3") != std::string::npos);
  CHECK(words<models::bad_malformed>().find("byte offset 14: expected a length-delimited field") != std::string::npos);
  CHECK(words<models::bad_dynamic_shape>().find("value \"x\" (name at byte 38), shape [-1,-1], axis 1 (dim_param \"F\"): "
                                                "bind it with --dim F=N") != std::string::npos);
  CHECK(words<models::conv_nchw_output>() == "ok\n");
  CHECK(words<models::bad_output_shape>().find("value \"y\" (name at byte 60), declared [-1,5], computed [1,4], axis 1") !=
        std::string::npos);
  CHECK(words<models::bad_weights>().find("node 0 (Conv), operand 1") != std::string::npos);
  CHECK(words<models::bad_integer_types>().find("different element types") != std::string::npos);
  CHECK(words<models::bad_integer_types>().find("node 0 (Add), operand 1") != std::string::npos);
}

// --- Operands not produced before their node (tests/data/onnx, scripts/gen_fuzz_regressions.py): well-formed
// protobuf, so not malformed_model. bad_dangling_operand: node 1 (Relu) reads "nowhere"; bad_cycle: node 0
// (Conv) reads "r1", the result of node 1 (Relu), which reads node 0's result.
static_assert(error_of<models::bad_dangling_operand>.code == code(onnx::onnx_error::undefined_operand) &&
              error_of<models::bad_dangling_operand>.node == 1 && error_of<models::bad_dangling_operand>.input_slot == 0 &&
              error_of<models::bad_dangling_operand>.operator_code == static_cast<std::int64_t>(onnx::op_type::Relu));
static_assert(error_of<models::bad_cycle>.code == code(onnx::onnx_error::operand_produced_later) &&
              error_of<models::bad_cycle>.node == 0 && error_of<models::bad_cycle>.input_slot == 0 &&
              error_of<models::bad_cycle>.position == 1 &&
              error_of<models::bad_cycle>.reason == static_cast<std::int64_t>(onnx::node_order::cycle));

// Hand-made graphs of one input x [1, 4] and one output "a" (onnx.helper, IR 7, opset 13):
//   out_of_order: node 0 Relu "late" (b -> a), node 1 Sigmoid (x -> b): sortable
//   self_loop:    node 0 Relu (a -> a)
//   long_cycle:   node 0 Relu (c -> a), node 1 Relu (b -> c), node 2 Relu (a -> b): node 1, c's producer,
//                 depends on node 0 through node 2, which follows it in the file (a second pass)
constexpr std::string_view out_of_order{
    "\010\007:R\012\022\012\001b\022\001a\032\004late\042\004Relu\012\017\012\001x\022\001b\042\007Sigmoid\022\001gZ"
    "\023\012\001x\022\016\012\014\010\001\022\010\012\002\010\001\012\002\010\004b\023\012\001a\022\016\012\014\010"
    "\001\022\010\012\002\010\001\012\002\010\004B\004\012\000\020\015", 92};
constexpr std::string_view self_loop{
    "\010\007:;\012\014\012\001a\022\001a\042\004Relu\022\001gZ\023\012\001x\022\016\012\014\010\001\022\010\012\002"
    "\010\001\012\002\010\004b\023\012\001a\022\016\012\014\010\001\022\010\012\002\010\001\012\002\010\004B\004\012"
    "\000\020\015", 69};
constexpr std::string_view long_cycle{
    "\010\007:W\012\014\012\001c\022\001a\042\004Relu\012\014\012\001b\022\001c\042\004Relu\012\014\012\001a\022\001b"
    "\042\004Relu\022\001gZ\023\012\001x\022\016\012\014\010\001\022\010\012\002\010\001\012\002\010\004b\023\012"
    "\001a\022\016\012\014\010\001\022\010\012\002\010\001\012\002\010\004B\004\012\000\020\015", 97};
constexpr ctnn::diagnostic error_in(std::string_view file) {
  return onnx::import<64, 64, 16, 16>(file.data(), file.size()).ir.error;
}
constexpr bool produced_later(const ctnn::diagnostic& d, std::int32_t node, std::int64_t producer, onnx::node_order order) {
  return d.code == code(onnx::onnx_error::operand_produced_later) && d.node == node && d.input_slot == 0 &&
         d.position == producer && d.reason == static_cast<std::int64_t>(order);
}
static_assert(produced_later(error_in(out_of_order), 0, 1, onnx::node_order::out_of_order));
static_assert(produced_later(error_in(self_loop), 0, 0, onnx::node_order::cycle));
static_assert(produced_later(error_in(long_cycle), 0, 1, onnx::node_order::cycle));

namespace {

std::vector<char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// An import at run time (as ctnn-inspect's: on the heap, at the bounds' capacities) and its words.
struct run_time_import {
  ctnn::diagnostic error{};
  std::string words;
};
run_time_import import_at_run_time(std::string_view file) {
  constexpr std::size_t tensors = 1024, nodes = 1024, values = 256, relayouts = 256;
  const onnx::import_counts b = onnx::bounds(file.data(), file.size());
  REQUIRE((b.tensors <= tensors && b.nodes <= nodes && b.values <= values && b.relayouts <= relayouts));
  auto r = std::make_unique<onnx::import_result<tensors, nodes, relayouts>>();
  onnx::import_into<values>(*r, file.data(), file.size());
  run_time_import out{r->ir.error, {}};
  onnx::describe(out.error, file.data(), file.size(), [&](std::string_view s) { out.words += s; });
  return out;
}
run_time_import import_file(const char* name) {
  // A path built by appending: g++ 12 -O2 flags `std::string{...} + "/" + name` (-Warray-bounds, a known false positive).
  std::string path = CTNN_ONNX_TEST_DATA_DIR;
  path.append("/").append(name);
  const std::vector<char> bytes = read_file(path);
  return import_at_run_time({bytes.data(), bytes.size()});
}

}  // namespace

TEST_CASE("a symbolic batch bound to 1 by default is recorded; a binding replaces the default") {
  using model = models::conv_net_dynamic_batch;
  const onnx::import_counts b = onnx::bounds(model::bytes.data(), model::bytes.size());
  REQUIRE((b.tensors <= 1024 && b.nodes <= 1024 && b.values <= 256 && b.relayouts <= 256));
  auto r = std::make_unique<onnx::import_result<1024, 1024, 256>>();
  onnx::import_into<256>(*r, model::bytes.data(), model::bytes.size());
  REQUIRE(!r->ir.error.failed());
  CHECK(r->batch_bound_to_one == 1u);
  const ctnn::protobuf::span name = r->batch_names[0];
  CHECK(std::string_view{model::bytes.data() + name.at, name.length} == "batch");
  r = std::make_unique<onnx::import_result<1024, 1024, 256>>();
  onnx::import_into<256>(*r, model::bytes.data(), model::bytes.size(), "onnx", {.dims = "batch=2"});
  REQUIRE(!r->ir.error.failed());
  CHECK(r->batch_bound_to_one == 0u);
  CHECK(r->ir.input_tensor(0).dims == ctnn::make_shape(2, 3, 8, 8));
  CHECK(r->ir.output_tensor(0).dims == ctnn::make_shape(2, 5));
  // An input-shape binding that contradicts a static extent, or has another rank, names the input.
  for (const std::string_view wrong : {"x=[1,4,8,8]", "x=[1,3,8]"}) {
    r = std::make_unique<onnx::import_result<1024, 1024, 256>>();
    onnx::import_into<256>(*r, model::bytes.data(), model::bytes.size(), "onnx", {.dims = wrong});
    CHECK(r->ir.error.code == code(onnx::onnx_error::symbolic_dimension));
    CHECK(r->ir.error.reason == static_cast<std::int64_t>(onnx::dimension_problem::shape_differs));
  }
}

TEST_CASE("an operand that no graph input, initializer or node produces: undefined_operand") {
  const run_time_import r = import_file("bad_dangling_operand.onnx");
  CAPTURE(r.words);
  CHECK(r.error.code == code(onnx::onnx_error::undefined_operand));
  CHECK(r.error.node == 1);
  CHECK(r.error.input_slot == 0);
  CHECK(r.words.starts_with("error: ctnn::onnx: this node reads a value that no graph input, initializer or node "
                            "produces"));
  CHECK(r.words.find("\n  node 1 (Relu) reads value \"nowhere\" (name at byte ") != std::string::npos);
  CHECK(r.words.ends_with(") as operand 0\n"));
  CHECK(r.words.find("malformed") == std::string::npos);
  CHECK(r.words == words<models::bad_dangling_operand>());  // the compile-time import's diagnostic, the same
}

TEST_CASE("an operand that a later node produces: a cycle, or nodes out of order") {
  const run_time_import cycle = import_file("bad_cycle.onnx");
  CAPTURE(cycle.words);
  CHECK(cycle.error.code == code(onnx::onnx_error::operand_produced_later));
  CHECK(cycle.error.node == 0);
  CHECK(cycle.error.position == 1);
  CHECK(cycle.error.reason == static_cast<std::int64_t>(onnx::node_order::cycle));
  CHECK(cycle.words.starts_with("error: ctnn::onnx: this node reads a value that a later node (or the node itself) "
                               "produces: "));
  CHECK(cycle.words.find("\n  node 0 (Conv) reads value \"r1\" (name at byte ") != std::string::npos);
  CHECK(cycle.words.ends_with(") as operand 0, which node 1 (Relu) produces after it: a cycle (node 1 depends on "
                              "the result of node 0)\n"));
  CHECK(cycle.words.find("malformed") == std::string::npos);
  CHECK(cycle.words == words<models::bad_cycle>());

  const run_time_import sortable = import_at_run_time(out_of_order);
  CAPTURE(sortable.words);
  CHECK(produced_later(sortable.error, 0, 1, onnx::node_order::out_of_order));
  CHECK(sortable.words.find("\n  node 0 (Relu \"late\") reads value \"b\" (name at byte ") != std::string::npos);
  CHECK(sortable.words.ends_with(") as operand 0, which node 1 (Sigmoid) produces after it: nodes out of order (node "
                                 "1 does not depend on the result of node 0: sort the nodes topologically)\n"));

  const run_time_import self = import_at_run_time(self_loop);
  CAPTURE(self.words);
  CHECK(produced_later(self.error, 0, 0, onnx::node_order::cycle));
  CHECK(self.words.ends_with("\n  node 0 (Relu) reads value \"a\" (name at byte 8) as operand 0, its own result: a "
                             "cycle\n"));

  const run_time_import longer = import_at_run_time(long_cycle);
  CAPTURE(longer.words);
  CHECK(produced_later(longer.error, 0, 1, onnx::node_order::cycle));
  CHECK(longer.words.ends_with("which node 1 (Relu) produces after it: a cycle (node 1 depends on the result of node "
                               "0)\n"));
}

// Every code the ONNX importer and the passes after it can report has a sentence that ctnn-run and
// ctnn-inspect print (no bare "error code N"), and numbers with their meaning (no bare field names).
static_assert([] {
  for (std::int32_t c = onnx::first_onnx_error; c <= onnx::last_onnx_error; ++c)
    if (onnx::sentence_of(static_cast<onnx::onnx_error>(c)).empty() || onnx::name_of(static_cast<onnx::onnx_error>(c)) == "?")
      return false;
  for (std::int32_t c = 1; c <= static_cast<std::int32_t>(ctnn::error_code::pipeline_rejected); ++c)
    if (ctnn::diagnostic_sentence(static_cast<ctnn::error_code>(c)).empty()) return false;
  for (const auto c : {ctnn::memory_error::pool_budget_exceeded, ctnn::memory_error::pin_unknown_tensor, ctnn::memory_error::pin_unknown_pool,
                       ctnn::memory_error::pin_ambiguous_tensor_name})
    if (ctnn::diagnostic_sentence(ctnn::code_of(c)).empty()) return false;
  return true;
}());

TEST_CASE("every diagnostic code is worded with its numbers") {
  const auto& bytes = models::conv_net::bytes;
  const auto words_of = [&](ctnn::error_code code) {
    std::string text;
    ctnn::diagnostic d{code, 1, op_kind::conv2d, ctnn::make_shape(1, 2), ctnn::make_shape(3, 4)};
    for (const ctnn::diagnostic_detail_field& field : ctnn::diagnostic_detail_fields) d.*field.member = 5;
    onnx::describe(d, bytes.data(), bytes.size(), [&](std::string_view s) { text += s; });
    return text;
  };
  for (std::int32_t c = 1; c <= onnx::last_onnx_error; ++c) {
    const auto code = static_cast<ctnn::error_code>(c);
    if (c > static_cast<std::int32_t>(ctnn::error_code::pipeline_rejected) && !onnx::is_onnx_error(code)) continue;
    const std::string text = words_of(code);
    CAPTURE(c);
    CAPTURE(text);
    CHECK(text.rfind("error: ctnn", 0) == 0);
    CHECK(text.find("error code") == std::string::npos);
    for (const ctnn::diagnostic_detail_field& field : ctnn::diagnostic_detail_fields)
      if (field.name.find('_') != std::string_view::npos) CHECK(text.find(field.name) == std::string::npos);
    if (c < onnx::first_onnx_error) CHECK(text.find("node 1 (") != std::string::npos);  // the node, from the file
  }
}
