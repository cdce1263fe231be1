// The transpose_conv family's models that ctnn refuses (scripts/gen_op_tests_transpose_conv.py writes them): the
// diagnostic of each import names the op and the operand or attribute at fault.
#include <cstdint>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include "frontend/import_checks.hpp"

#include <ctnn/models/transpose_conv_refused_int16_bias32.hpp>
#include <ctnn/models/transpose_conv_refused_log_softmax_result_quantization.hpp>
#include <ctnn/models/transpose_conv_refused_output_shape_input.hpp>
#include <ctnn/models/transpose_conv_refused_output_shape_mismatch.hpp>
#include <ctnn/models/transpose_conv_refused_padv2_value_quantization.hpp>

namespace {

namespace models = ctnn::models;
using ctnn::frontend_error;
using ctnn::op_kind;

using ctnn_test::error_of;
using ctnn_test::refused_operand;

// TFLite: TRANSPOSE_CONV's output_shape a graph input, or a constant other than the output tensor's shape; an
// int16 TRANSPOSE_CONV with an int32 bias (TFLM reads int64); an int8 PADV2 value quantized otherwise than the
// output (TFLM's Prepare refuses it); an int8 LOG_SOFTMAX result of zero point 0 (TFLM's kernel writes 127).
static_assert(refused_operand<models::transpose_conv_refused_output_shape_input>(0, op_kind::transpose_conv2d));
static_assert(refused_operand<models::transpose_conv_refused_output_shape_mismatch>(0, op_kind::transpose_conv2d));
static_assert(refused_operand<models::transpose_conv_refused_int16_bias32>(3, op_kind::transpose_conv2d));
static_assert(refused_operand<models::transpose_conv_refused_padv2_value_quantization>(2, op_kind::pad));
static_assert(error_of<models::transpose_conv_refused_log_softmax_result_quantization>.code ==
                  code_of(frontend_error::tflite_invalid_quantization) &&
              error_of<models::transpose_conv_refused_log_softmax_result_quantization>.reason ==
                  static_cast<std::int64_t>(ctnn::tflite::quantization_problem::log_softmax_result));

}  // namespace

TEST_CASE("a non-constant TRANSPOSE_CONV output_shape is described with the op and the operand") {
  std::string text;
  ctnn::tflite::describe(error_of<models::transpose_conv_refused_output_shape_input>, [&](std::string_view s) { text += s; });
  CHECK(text.find("must be a constant") != std::string::npos);
  CHECK(text.find("op 0 (TRANSPOSE_CONV \"y\"), operand 0") != std::string::npos);
}
