// The shape family's models that ctnn refuses (scripts/gen_op_tests_shape.py writes them): the diagnostic of
// each import, and the words of the TFLite importer's own code for an option value (ctnn::tflite::describe).
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include "frontend/import_checks.hpp"

#include <ctnn/models/onnx_shape_refused_concat_nine_inner_rank.hpp>
#include <ctnn/models/onnx_shape_refused_concat_nine_reads_itself.hpp>
#include <ctnn/models/onnx_shape_refused_depth_to_space_mode.hpp>
#include <ctnn/models/onnx_shape_refused_gather_nine_constant_indices_one_outside.hpp>
#include <ctnn/models/onnx_shape_refused_slice_empty.hpp>
#include <ctnn/models/onnx_shape_refused_slice_step_0.hpp>
#include <ctnn/models/onnx_shape_refused_split_uncovered.hpp>
#include <ctnn/models/onnx_shape_refused_squeeze_not_unit.hpp>
#include <ctnn/models/shape_refused_concatenation_nine_no_tensor.hpp>
#include <ctnn/models/shape_refused_concatenation_nine_reads_itself.hpp>
#include <ctnn/models/shape_refused_depth_to_space_block_0.hpp>
#include <ctnn/models/shape_refused_gather_batch_dims.hpp>
#include <ctnn/models/shape_refused_gather_index_outside.hpp>
#include <ctnn/models/shape_refused_split_v_uncovered.hpp>
#include <ctnn/models/shape_refused_squeeze_not_unit.hpp>
#include <ctnn/models/shape_refused_strided_slice_ellipsis.hpp>
#include <ctnn/models/shape_refused_strided_slice_rank5.hpp>
#include <ctnn/models/shape_refused_transpose_rank6.hpp>

namespace {

namespace models = ctnn::models;
namespace schema = ctnn::tflite::schema;
using ctnn::error_code;
using ctnn::frontend_error;
using ctnn::op_kind;
using ctnn::onnx::onnx_error;

using ctnn_test::error_of;

// TFLite: STRIDED_SLICE's ellipsis mask (TFLM ignores it) and rank 5 (TFLM's limit is 4); GATHER's
// batch_dims and a constant index outside the axis; SQUEEZE of a dim that is not 1; a DEPTH_TO_SPACE block of 0;
// TRANSPOSE of rank 6 (TFLM's limit is 5); SPLIT_V whose outputs leave part of the input.
static_assert(error_of<models::shape_refused_strided_slice_ellipsis>.code == code_of(frontend_error::tflite_unsupported_option) &&
              error_of<models::shape_refused_strided_slice_ellipsis>.reason == schema::strided_slice::ellipsis_mask &&
              error_of<models::shape_refused_strided_slice_ellipsis>.rejected_value == 1 &&
              error_of<models::shape_refused_strided_slice_ellipsis>.kind == op_kind::slice);
static_assert(error_of<models::shape_refused_strided_slice_rank5>.code == error_code::unsupported_rank &&
              error_of<models::shape_refused_strided_slice_rank5>.rank_expected == 4 &&
              error_of<models::shape_refused_strided_slice_rank5>.rank_actual == 5);
static_assert(error_of<models::shape_refused_gather_batch_dims>.code == code_of(frontend_error::tflite_unsupported_option) &&
              error_of<models::shape_refused_gather_batch_dims>.reason == schema::gather::batch_dims);
static_assert(error_of<models::shape_refused_gather_index_outside>.code == code_of(frontend_error::tflite_unsupported_operand) &&
              error_of<models::shape_refused_gather_index_outside>.input_slot == 1);
static_assert(error_of<models::shape_refused_squeeze_not_unit>.code == error_code::invalid_axis &&
              error_of<models::shape_refused_squeeze_not_unit>.axis == 1);
static_assert(error_of<models::shape_refused_depth_to_space_block_0>.code == code_of(frontend_error::tflite_unsupported_option) &&
              error_of<models::shape_refused_depth_to_space_block_0>.reason == schema::depth_to_space::block_size &&
              error_of<models::shape_refused_depth_to_space_block_0>.rejected_value == 0);
static_assert(error_of<models::shape_refused_transpose_rank6>.code == error_code::unsupported_rank &&
              error_of<models::shape_refused_transpose_rank6>.rank_expected == 5);
static_assert(error_of<models::shape_refused_split_v_uncovered>.code == error_code::input_shapes_differ &&
              error_of<models::shape_refused_split_v_uncovered>.kind == op_kind::slice);

// ONNX: a Slice step of 0 and an empty Slice; Split sizes that leave part of the input; nine constant Gather
// indices (a gather node's, more than slices take) one of them outside the axis; DepthToSpace in a mode ONNX does not define; Squeeze of a dim that is not 1.
constexpr auto code = [](onnx_error e) { return ctnn::onnx::code_of(e); };
static_assert(error_of<models::onnx_shape_refused_slice_step_0>.code == code(onnx_error::operand_value) &&
              error_of<models::onnx_shape_refused_slice_step_0>.input_slot == 4);
static_assert(error_of<models::onnx_shape_refused_slice_empty>.code == error_code::input_shapes_differ &&
              error_of<models::onnx_shape_refused_slice_empty>.kind == op_kind::slice);
static_assert(error_of<models::onnx_shape_refused_split_uncovered>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_shape_refused_split_uncovered>.attribute == static_cast<std::int64_t>(ctnn::onnx::attribute::split));
static_assert(error_of<models::onnx_shape_refused_gather_nine_constant_indices_one_outside>.code == code(onnx_error::operand_value) &&
              error_of<models::onnx_shape_refused_gather_nine_constant_indices_one_outside>.input_slot == 1 &&
              error_of<models::onnx_shape_refused_gather_nine_constant_indices_one_outside>.operator_code ==
                  static_cast<std::int64_t>(ctnn::onnx::op_type::Gather));
static_assert(error_of<models::onnx_shape_refused_depth_to_space_mode>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_shape_refused_depth_to_space_mode>.attribute == static_cast<std::int64_t>(ctnn::onnx::attribute::mode));
static_assert(error_of<models::onnx_shape_refused_squeeze_not_unit>.code == error_code::invalid_axis);

// Concats of more operands than a node holds (operand trees, frontend/detail/operand_tree.hpp) with a bad operand:
// refused naming it, before any inner node reads it as a tensor (the fuzzers' wide-concat crash class). ONNX: an
// operand that is the node's own result (entered before the tree reads its operands) is a cycle; a rank-1 operand
// among rank-2 ones fails the first inner concat, which ends the tree. TFLite: an operand index that is no tensor,
// and the op's own output (no producer yet).
static_assert(error_of<models::onnx_shape_refused_concat_nine_reads_itself>.code == code(onnx_error::operand_produced_later) &&
              error_of<models::onnx_shape_refused_concat_nine_reads_itself>.input_slot == 4 &&
              error_of<models::onnx_shape_refused_concat_nine_reads_itself>.reason ==
                  static_cast<std::int64_t>(ctnn::onnx::node_order::cycle));
static_assert(error_of<models::onnx_shape_refused_concat_nine_inner_rank>.code == error_code::input_shapes_differ &&
              error_of<models::onnx_shape_refused_concat_nine_inner_rank>.kind == op_kind::concat);
static_assert(error_of<models::shape_refused_concatenation_nine_no_tensor>.code == code_of(frontend_error::tflite_malformed_model) &&
              error_of<models::shape_refused_concatenation_nine_no_tensor>.reason ==
                  static_cast<std::int64_t>(ctnn::flatbuffers::expectation::tensor_index));
static_assert(error_of<models::shape_refused_concatenation_nine_reads_itself>.code == code_of(frontend_error::tflite_malformed_model) &&
              error_of<models::shape_refused_concatenation_nine_reads_itself>.reason ==
                  static_cast<std::int64_t>(ctnn::flatbuffers::expectation::produced_tensor));

}  // namespace

TEST_CASE("an unsupported TFLite option value is described with its field and value") {
  std::string text;
  ctnn::tflite::describe(error_of<models::shape_refused_strided_slice_ellipsis>, [&](std::string_view s) { text += s; });
  CHECK(text.find("an option of this op has a value ctnn does not support") != std::string::npos);
  CHECK(text.find("op 0 (STRIDED_SLICE \"output\"), option field 2, value 1") != std::string::npos);
}
