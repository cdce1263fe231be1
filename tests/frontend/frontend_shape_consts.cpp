// The integers ONNX imports compute at import (frontend/onnx/import_known.hpp; scripts/gen_op_tests_shape_consts.py
// writes the models): the shape chains of real exports fold away (no node of theirs is left), and what the
// importer's store does not take is refused with a diagnostic that names the value.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include "case_suite.hpp"
#include "frontend/import_checks.hpp"

#include <ctnn/frontend/onnx.hpp>
#include <ctnn/models/shape_consts_cnn_flatten_gemm.hpp>
#include <ctnn/models/shape_consts_flatten_chain.hpp>
#include <ctnn/models/shape_consts_known_concat_tree_reclaim.hpp>
#include <ctnn/models/shape_consts_refused_div_by_zero.hpp>
#include <ctnn/models/shape_consts_refused_range_float.hpp>
#include <ctnn/models/shape_consts_refused_range_too_long.hpp>
#include <ctnn/models/shape_consts_refused_rank5_output.hpp>
#include <ctnn/models/shape_consts_refused_store_full.hpp>
#include <ctnn/models/shape_consts_shape_cast_float_mul.hpp>
#include <ctnn/models/shape_consts_shape_size_equal_outputs.hpp>
#include <ctnn/models/shape_consts_tflite_refused_shape_added.hpp>
#include <ctnn/models/shape_consts_tflite_refused_shape_output.hpp>
#include <ctnn/models/shape_consts_tflite_shape_strided_slice_pack_reshape.hpp>

namespace {

namespace models = ctnn::models;
using ctnn::op_kind;
using ctnn::onnx::onnx_error;
using ctnn::onnx::tensor_feature;
using ctnn_test::error_of;

constexpr auto code = [](onnx_error e) { return ctnn::onnx::code_of(e); };

// The nodes of `kind` in a module.
template <class Module>
constexpr std::int32_t nodes_of_kind(const Module& m, op_kind kind) {
  std::int32_t n = 0;
  for (std::int32_t k = 0; k < m.node_count; ++k) n += m.node_at(k).kind == kind ? 1 : 0;
  return n;
}

// x.view(x.size(0), -1) then a Relu: Shape, Gather, Unsqueeze and Concat leave no node; the reshape and the relu
// remain, the reshape's target [2, 60] (the -1 resolved by the IR's reshape).
constexpr auto& flatten = models::shape_consts_flatten_chain::imported;
static_assert(!flatten.error.failed());
static_assert(flatten.node_count == 2 && nodes_of_kind(flatten, op_kind::reshape) == 1 && nodes_of_kind(flatten, op_kind::relu) == 1);
static_assert(flatten.tensor_at(flatten.outputs[0]).dims == ctnn::make_shape(2, 60));

// A CNN's flatten before a Gemm (opset 11, Unsqueeze's axes an attribute): conv, relu, pool, the reshape, the dense.
constexpr auto& cnn = models::shape_consts_cnn_flatten_gemm::imported;
static_assert(!cnn.error.failed());
static_assert(nodes_of_kind(cnn, op_kind::reshape) >= 1 && nodes_of_kind(cnn, op_kind::dense) == 1 &&
              nodes_of_kind(cnn, op_kind::gather) == 0 && nodes_of_kind(cnn, op_kind::concat) == 0);

// A Concat of 64 known values whose fifth inner concat (operand_tree.hpp) fills the store: its reclaim frees the 20
// Shapes nothing reads and keeps the inner results made so far (no name finds them); the whole concat a known value
// of 128 elements, copied to the output.
constexpr auto& reclaimed = models::shape_consts_known_concat_tree_reclaim::imported;
static_assert(!reclaimed.error.failed() && reclaimed.output_count == 1 && nodes_of_kind(reclaimed, op_kind::concat) == 0);
static_assert(reclaimed.tensor_at(reclaimed.outputs[0]).dims == ctnn::make_shape(128));

// Known values as graph outputs (INT64 Shape, INT32 Size, BOOL Equal): constant tensors of their elements, one
// known_integers relayout each, copied to the outputs.
constexpr auto& outputs = models::shape_consts_shape_size_equal_outputs::imported;
static_assert(!outputs.error.failed() && outputs.output_count == 3 && nodes_of_kind(outputs, op_kind::reshape) == 3);
static_assert(outputs.tensor_at(outputs.outputs[0]).type == ctnn::dtype::i64 &&
              outputs.tensor_at(outputs.outputs[1]).type == ctnn::dtype::i32 &&
              outputs.tensor_at(outputs.outputs[2]).type == ctnn::dtype::b8);

// A known value of rank 5 as a graph output (a relayout holds rank 4 at most); 70 known values (the store holds 64).
static_assert(error_of<models::shape_consts_refused_rank5_output>.code == code(onnx_error::unsupported_tensor_feature) &&
              error_of<models::shape_consts_refused_rank5_output>.reason == static_cast<std::int64_t>(tensor_feature::computed_integers));
static_assert(error_of<models::shape_consts_refused_store_full>.code == code(onnx_error::unsupported_tensor_feature) &&
              error_of<models::shape_consts_refused_store_full>.reason ==
                  static_cast<std::int64_t>(tensor_feature::computed_integers_capacity) &&
              error_of<models::shape_consts_refused_store_full>.node == static_cast<std::int32_t>(ctnn::onnx::max_known_values));
// A Range of 100000 elements: more than a known value holds (max_known_elements), refused before it is written.
static_assert(error_of<models::shape_consts_refused_range_too_long>.code == code(onnx_error::unsupported_tensor_feature) &&
              error_of<models::shape_consts_refused_range_too_long>.reason ==
                  static_cast<std::int64_t>(tensor_feature::computed_integers_capacity) &&
              error_of<models::shape_consts_refused_range_too_long>.node == 3);
// A FLOAT Range (a tensor ctnn does not compute); a Div of a known shape by 0.
static_assert(error_of<models::shape_consts_refused_range_float>.code == code(onnx_error::operand_type) &&
              error_of<models::shape_consts_refused_range_float>.input_slot == 0);
static_assert(error_of<models::shape_consts_refused_div_by_zero>.code == code(onnx_error::operand_value) &&
              error_of<models::shape_consts_refused_div_by_zero>.input_slot == 1);

// TFLite: SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE leaves the reshape alone; SHAPE as a graph output, and a
// known value read by an ADD, are refused naming the known tensor (1: "shape").
constexpr auto& keras = models::shape_consts_tflite_shape_strided_slice_pack_reshape::imported;
static_assert(!keras.error.failed() && keras.node_count == 1 && keras.node_at(0).kind == op_kind::reshape);
static_assert(error_of<models::shape_consts_tflite_refused_shape_output>.code ==
                  code_of(ctnn::frontend_error::tflite_unsupported_tensor_feature) &&
              error_of<models::shape_consts_tflite_refused_shape_output>.tensor == 1 &&
              error_of<models::shape_consts_tflite_refused_shape_output>.reason ==
                  static_cast<std::int64_t>(ctnn::tflite::tensor_feature::computed_integers));
static_assert(error_of<models::shape_consts_tflite_refused_shape_added>.code ==
                  code_of(ctnn::frontend_error::tflite_unsupported_tensor_feature) &&
              error_of<models::shape_consts_tflite_refused_shape_added>.tensor == 1 &&
              error_of<models::shape_consts_tflite_refused_shape_added>.node == 1);

}  // namespace

TEST_CASE("a full store is described with the value it refused") {
  using model = models::shape_consts_refused_store_full;
  std::string text;
  ctnn::onnx::describe(error_of<model>, model::bytes.data(), model::bytes.size(), [&](std::string_view s) { text += s; });
  CHECK(text.find("value \"s64\"") != std::string::npos);
  CHECK(text.find("more integers computed at import than the importer holds") != std::string::npos);
}

// Through ctnn::compile (the case suites' route, which the quick tier leaves out): the known tensors' bytes are
// computed at compile time (onnx.hpp, relaid_out).
TEST_CASE("known values as outputs, as a float op's operand and folded into a TFLite reshape, compiled") {
  ctnn_test::case_suite::check<ctnn::compile<models::shape_consts_shape_size_equal_outputs>>(
      CTNN_SHAPE_CONSTS_DIR "/onnx_shape_size_equal_outputs", {1e-5f, 1e-6f});
  ctnn_test::case_suite::check<ctnn::compile<models::shape_consts_shape_cast_float_mul>>(
      CTNN_SHAPE_CONSTS_DIR "/onnx_shape_cast_float_mul", {1e-5f, 1e-6f});
  ctnn_test::case_suite::check<ctnn::compile<models::shape_consts_cnn_flatten_gemm>>(
      CTNN_SHAPE_CONSTS_DIR "/onnx_cnn_flatten_gemm", {1e-5f, 1e-6f});
  ctnn_test::case_suite::check<ctnn::compile<models::shape_consts_tflite_shape_strided_slice_pack_reshape>>(
      CTNN_SHAPE_CONSTS_DIR "/tflite_shape_strided_slice_pack_reshape", {1e-5f, 1e-6f});
}
