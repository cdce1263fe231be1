// The modules of the generated ONNX models (static_asserts on the import, compile time), and the
// diagnostics of the rejected ones without their compile error (the import alone), with their words
// (ctnn::onnx::describe, run time).
#include <cstddef>
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include <ctnn/frontend/onnx.hpp>
#include <ctnn/models/bad_attribute.hpp>
#include <ctnn/models/bad_dynamic_shape.hpp>
#include <ctnn/models/bad_integer_types.hpp>
#include <ctnn/models/bad_malformed.hpp>
#include <ctnn/models/conv_nchw_output.hpp>
#include <ctnn/models/bad_unsupported_op.hpp>
#include <ctnn/models/bad_weights.hpp>
#include <ctnn/models/conv_net.hpp>
#include <ctnn/models/mlp.hpp>

namespace models = ctnn::models;
namespace onnx = ctnn::onnx;
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
  return first.kind == op_kind::transpose && first.inputs[0] == m.inputs[0] && first.attrs.perm[0] == 0 &&
         first.attrs.perm[1] == 2 && first.attrs.perm[2] == 3 && first.attrs.perm[3] == 1 &&
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
              error_of<models::bad_unsupported_op>.operator_code == static_cast<std::int64_t>(onnx::op_type::Sub));
static_assert(error_of<models::bad_attribute>.code == code(onnx::onnx_error::unsupported_attribute) &&
              error_of<models::bad_attribute>.node == 1 &&
              error_of<models::bad_attribute>.attribute == static_cast<std::int64_t>(onnx::attribute::group) &&
              error_of<models::bad_attribute>.expected.dims[0] == 3);
static_assert(error_of<models::bad_malformed>.code == code(onnx::onnx_error::malformed_model) &&
              error_of<models::bad_malformed>.byte_offset == 14 &&
              error_of<models::bad_malformed>.reason == static_cast<std::int64_t>(ctnn::protobuf::expectation::length));
static_assert(error_of<models::bad_dynamic_shape>.code == code(onnx::onnx_error::no_static_shape) &&
              error_of<models::bad_dynamic_shape>.actual == ctnn::make_shape(-1, 4));
// conv_nchw_output: the conv's NHWC result goes back to NCHW through a transpose that writes the output.
constexpr bool transposes_the_output(const auto& m) {
  if (m.error.failed() || m.output_count != 1) return false;
  const ctnn::tensor& out = m.output_tensor(0);
  if (out.dims != ctnn::make_shape(1, 2, 3, 3) || out.producer < 0) return false;
  const ctnn::node& back = m.node_at(out.producer);
  return back.kind == op_kind::transpose && back.attrs.perm[0] == 0 && back.attrs.perm[1] == 3 && back.attrs.perm[2] == 1 &&
         back.attrs.perm[3] == 2 && m.tensor_at(back.inputs[0]).dims == ctnn::make_shape(1, 3, 3, 2);
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
  CHECK(words<models::bad_unsupported_op>().find("does not support (the node's") != std::string::npos);
  CHECK(words<models::bad_unsupported_op>().find("\n  node 1 (Sub)\n") != std::string::npos);
  CHECK(words<models::bad_attribute>().find("node 1 (Conv), attribute group = 3") != std::string::npos);
  CHECK(words<models::bad_malformed>().find("byte offset 14: expected a length-delimited field") != std::string::npos);
  CHECK(words<models::bad_dynamic_shape>().find("value \"x\"") != std::string::npos);
  CHECK(words<models::conv_nchw_output>() == "ok\n");
  CHECK(words<models::bad_weights>().find("node 0 (Conv), operand 1") != std::string::npos);
  CHECK(words<models::bad_integer_types>().find("different element types") != std::string::npos);
  CHECK(words<models::bad_integer_types>().find("node 0 (Add), operand 1") != std::string::npos);
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
