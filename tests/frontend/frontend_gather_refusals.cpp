// The gather/scatter family's models that ctnn refuses (scripts/gen_op_tests_gather.py writes them): the
// diagnostic of each import names the op, and the type, operand or attribute at fault.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include "frontend/import_checks.hpp"

#include <ctnn/models/gather_refused_cumsum_int32.hpp>
#include <ctnn/models/gather_refused_embedding_lookup_hybrid_zero_point.hpp>
#include <ctnn/models/gather_refused_fill_dims_mismatch.hpp>
#include <ctnn/models/gather_refused_gather_nd_index_outside.hpp>
#include <ctnn/models/gather_refused_reverse_not_consecutive.hpp>
#include <ctnn/models/onnx_gather_refused_constant_of_shape_int.hpp>
#include <ctnn/models/onnx_gather_refused_gather_elements_axis_outside.hpp>
#include <ctnn/models/onnx_gather_refused_gather_nd_constant_batch_dims.hpp>
#include <ctnn/models/onnx_gather_refused_scatter_elements_constant_index_outside.hpp>
#include <ctnn/models/onnx_gather_refused_scatter_nd_constant_tuple_outside.hpp>
#include <ctnn/models/onnx_gather_refused_scatter_nd_reduction_unknown.hpp>

namespace {

namespace models = ctnn::models;
using ctnn::frontend_error;
using ctnn::op_kind;
using ctnn::onnx::onnx_error;

using ctnn_test::error_of;
using ctnn_test::refused_operand;

// TFLite: CUMSUM of int32 (TFLM's kernel takes float32 and int8); REVERSE_V2 of axes that are not consecutive;
// a constant GATHER_ND tuple outside the data; FILL dims that are not the output's shape; a hybrid
// EMBEDDING_LOOKUP table with a zero point other than 0.
static_assert(error_of<models::gather_refused_cumsum_int32>.code == ctnn::error_code::unsupported_dtype &&
              error_of<models::gather_refused_cumsum_int32>.kind == op_kind::cumsum &&
              error_of<models::gather_refused_cumsum_int32>.rejected_value == static_cast<std::int64_t>(ctnn::dtype::i32));
static_assert(refused_operand<models::gather_refused_reverse_not_consecutive>(1, op_kind::slice));
static_assert(refused_operand<models::gather_refused_gather_nd_index_outside>(1, op_kind::gather_nd));
static_assert(refused_operand<models::gather_refused_fill_dims_mismatch>(0, op_kind::tile));
static_assert(refused_operand<models::gather_refused_embedding_lookup_hybrid_zero_point>(1, op_kind::gather));

// ONNX: ConstantOfShape of an INT8 value; ScatterND with reduction "sub"; GatherND of constant indices with
// batch_dims 1; GatherElements with axis 2 on rank-2 data; ScatterElements of a constant index (the second,
// 3) outside its axis of extent 3; ScatterND of a constant tuple whose second component (-4, element 1) lies
// outside its dim of extent 3.
constexpr auto code = [](onnx_error e) { return ctnn::onnx::code_of(e); };
constexpr auto attribute = [](ctnn::onnx::attribute a) { return static_cast<std::int64_t>(a); };
static_assert(error_of<models::onnx_gather_refused_constant_of_shape_int>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_gather_refused_constant_of_shape_int>.attribute == attribute(ctnn::onnx::attribute::value));
static_assert(error_of<models::onnx_gather_refused_scatter_nd_reduction_unknown>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_gather_refused_scatter_nd_reduction_unknown>.attribute ==
                  attribute(ctnn::onnx::attribute::reduction));
static_assert(error_of<models::onnx_gather_refused_gather_nd_constant_batch_dims>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_gather_refused_gather_nd_constant_batch_dims>.attribute ==
                  attribute(ctnn::onnx::attribute::batch_dims));

static_assert(error_of<models::onnx_gather_refused_gather_elements_axis_outside>.code == ctnn::error_code::invalid_axis &&
              error_of<models::onnx_gather_refused_gather_elements_axis_outside>.kind == op_kind::gather_elements &&
              error_of<models::onnx_gather_refused_gather_elements_axis_outside>.axis == 2);
static_assert(error_of<models::onnx_gather_refused_scatter_elements_constant_index_outside>.code == code(onnx_error::operand_value) &&
              error_of<models::onnx_gather_refused_scatter_elements_constant_index_outside>.input_slot == 1 &&
              error_of<models::onnx_gather_refused_scatter_elements_constant_index_outside>.operator_code ==
                  static_cast<std::int64_t>(ctnn::onnx::op_type::ScatterElements));
static_assert(error_of<models::onnx_gather_refused_scatter_nd_constant_tuple_outside>.code == code(onnx_error::operand_value) &&
              error_of<models::onnx_gather_refused_scatter_nd_constant_tuple_outside>.input_slot == 1 &&
              error_of<models::onnx_gather_refused_scatter_nd_constant_tuple_outside>.operator_code ==
                  static_cast<std::int64_t>(ctnn::onnx::op_type::ScatterND));

}  // namespace

TEST_CASE("an unsupported ScatterND reduction is described with the op, the attribute and its value") {
  std::string text;
  using model = models::onnx_gather_refused_scatter_nd_reduction_unknown;
  ctnn::onnx::describe(error_of<model>, model::bytes.data(), model::bytes.size(), [&](std::string_view s) { text += s; });
  CHECK(text.find("ScatterND") != std::string::npos);
  CHECK(text.find("reduction") != std::string::npos);
  CHECK(text.find("\"sub\"") != std::string::npos);
}

TEST_CASE("a GatherElements axis outside the data is described with the op and the axis") {
  std::string text;
  using model = models::onnx_gather_refused_gather_elements_axis_outside;
  ctnn::onnx::describe(error_of<model>, model::bytes.data(), model::bytes.size(), [&](std::string_view s) { text += s; });
  CHECK(text.find("GatherElements") != std::string::npos);
  CHECK(text.find("axis") != std::string::npos);
}

TEST_CASE("a constant ScatterElements index outside the axis is described with the op, the operand and the index") {
  std::string text;
  using model = models::onnx_gather_refused_scatter_elements_constant_index_outside;
  ctnn::onnx::describe(error_of<model>, model::bytes.data(), model::bytes.size(), [&](std::string_view s) { text += s; });
  CHECK(text.find("ScatterElements") != std::string::npos);
  CHECK(text.find("operand 1, element 1 = 3") != std::string::npos);
}
