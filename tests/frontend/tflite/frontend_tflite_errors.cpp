// The diagnostics of the models ctnn must reject, read from the imported module (a value: the compile
// error is ctnn::compile's; the compile errors themselves are the
// frontend_compile_fail_* tests), and their words at run time (ctnn::tflite::describe, as ctnn-inspect
// prints them).
#include <string>

#include <doctest/doctest.h>

#include "frontend/import_checks.hpp"

#include <ctnn/models/bad_dynamic_shape.hpp>
#include <ctnn/models/bad_fused_tanh.hpp>
#include <ctnn/models/bad_hybrid.hpp>
#include <ctnn/models/bad_malformed.hpp>
#include <ctnn/models/bad_pad_not_constant.hpp>
#include <ctnn/models/bad_arg_max_int64.hpp>
#include <ctnn/models/bad_arg_max_two_axes.hpp>
#include <ctnn/models/bad_reduce_max_requantized.hpp>
#include <ctnn/models/bad_softmax_beta.hpp>
#include <ctnn/models/bad_uint8.hpp>
#include <ctnn/models/uint8_add.hpp>
#include <ctnn/models/uint8_conv.hpp>
#include <ctnn/models/uint8_quantize_from_f32.hpp>
#include <ctnn/models/uint8_quantize_unscaled.hpp>
#include <ctnn/models/bad_unsupported_op.hpp>
#include <ctnn/models/bad_channel_scale.hpp>
#include <ctnn/models/bad_logistic_scale.hpp>
#include <ctnn/models/bad_multiplier.hpp>
#include <ctnn/models/bad_scale_nan.hpp>
#include <ctnn/models/bad_zero_point.hpp>

namespace models = ctnn::models;
using ctnn::code_of;
using ctnn::frontend_error;

using ctnn_test::error_of;

static_assert(error_of<models::bad_unsupported_op>.code == code_of(frontend_error::tflite_unsupported_operator));
static_assert(error_of<models::bad_unsupported_op>.node == 1);
static_assert(error_of<models::bad_unsupported_op>.operator_code == static_cast<int>(ctnn::tflite::builtin_operator::lsh_projection));

static_assert(error_of<models::bad_hybrid>.code == code_of(frontend_error::tflite_hybrid_model));
static_assert(error_of<models::bad_hybrid>.node == 0 && error_of<models::bad_hybrid>.kind == ctnn::op_kind::dense);
static_assert(error_of<models::bad_hybrid>.tensor == 1, "the int8 weight tensor");

static_assert(error_of<models::bad_dynamic_shape>.code == code_of(frontend_error::tflite_no_static_shape));
static_assert(error_of<models::bad_dynamic_shape>.tensor == 0);
static_assert(error_of<models::bad_dynamic_shape>.actual == ctnn::make_shape(-1, 4));

static_assert(error_of<models::bad_malformed>.code == code_of(frontend_error::tflite_malformed_model));
static_assert(error_of<models::bad_malformed>.byte_offset == 44, "the Model's buffers field");
static_assert(error_of<models::bad_malformed>.reason == static_cast<int>(ctnn::flatbuffers::expectation::offset));

static_assert(error_of<models::bad_softmax_beta>.code == code_of(frontend_error::tflite_softmax_beta));
static_assert(error_of<models::bad_softmax_beta>.node == 1 && error_of<models::bad_softmax_beta>.rejected_value == 2'000'000);

static_assert(error_of<models::bad_fused_tanh>.code == code_of(frontend_error::tflite_unsupported_activation));
static_assert(error_of<models::bad_fused_tanh>.rejected_value == static_cast<int>(ctnn::tflite::activation_function::tanh));

// UINT8 tensors import; an op TFLM does not run on uint8 is refused with the first such tensor of it (inputs,
// then outputs): a RELU, an old fully-uint8 model's CONV_2D (its first uint8 op), an ADD between QUANTIZEs.
static_assert(error_of<models::bad_uint8>.code == code_of(frontend_error::tflite_uint8_operand));
static_assert(error_of<models::bad_uint8>.node == 0 && error_of<models::bad_uint8>.tensor == 0);
static_assert(error_of<models::bad_uint8>.operator_code == static_cast<int>(ctnn::tflite::builtin_operator::relu));
static_assert(error_of<models::uint8_conv>.code == code_of(frontend_error::tflite_uint8_operand));
static_assert(error_of<models::uint8_conv>.node == 0 && error_of<models::uint8_conv>.tensor == 0);
static_assert(error_of<models::uint8_conv>.operator_code == static_cast<int>(ctnn::tflite::builtin_operator::conv_2d));
static_assert(error_of<models::uint8_add>.code == code_of(frontend_error::tflite_uint8_operand));
static_assert(error_of<models::uint8_add>.node == 0 && error_of<models::uint8_add>.tensor == 0);
static_assert(error_of<models::uint8_add>.operator_code == static_cast<int>(ctnn::tflite::builtin_operator::add));
// QUANTIZE runs uint8 only to and from int8 (float32 -> uint8 is refused, naming the result), and its uint8
// result needs a scale.
static_assert(error_of<models::uint8_quantize_from_f32>.code == code_of(frontend_error::tflite_uint8_operand));
static_assert(error_of<models::uint8_quantize_from_f32>.node == 0 && error_of<models::uint8_quantize_from_f32>.tensor == 1);
static_assert(error_of<models::uint8_quantize_unscaled>.code == code_of(frontend_error::tflite_invalid_quantization));
static_assert(error_of<models::uint8_quantize_unscaled>.tensor == 1 &&
              error_of<models::uint8_quantize_unscaled>.reason ==
                  static_cast<int>(ctnn::tflite::quantization_problem::uint8_result_scale));

static_assert(error_of<models::bad_pad_not_constant>.code == code_of(frontend_error::tflite_unsupported_operand));
static_assert(error_of<models::bad_pad_not_constant>.node == 0 && error_of<models::bad_pad_not_constant>.input_slot == 1);

// What TFLM's reductions fail: ARG_MAX over two axes or into int64, an int8 REDUCE_MAX that rescales.
static_assert(error_of<models::bad_arg_max_two_axes>.code == code_of(frontend_error::tflite_unsupported_operand));
static_assert(error_of<models::bad_arg_max_two_axes>.kind == ctnn::op_kind::arg_max &&
              error_of<models::bad_arg_max_two_axes>.input_slot == 1);
static_assert(error_of<models::bad_arg_max_int64>.code == ctnn::error_code::unsupported_dtype);
static_assert(error_of<models::bad_arg_max_int64>.kind == ctnn::op_kind::arg_max &&
              error_of<models::bad_arg_max_int64>.rejected_value == static_cast<int>(ctnn::dtype::i64));
static_assert(error_of<models::bad_reduce_max_requantized>.code == code_of(frontend_error::tflite_invalid_quantization));
static_assert(error_of<models::bad_reduce_max_requantized>.kind == ctnn::op_kind::reduce_max &&
              error_of<models::bad_reduce_max_requantized>.tensor == 2 &&
              error_of<models::bad_reduce_max_requantized>.reason ==
                  static_cast<int>(ctnn::tflite::quantization_problem::not_the_inputs));

// Quantization parameters: the tensor and the problem, or the op and the multiplier's shift.
using ctnn::tflite::quantization_problem;
static_assert(error_of<models::bad_scale_nan>.code == code_of(frontend_error::tflite_invalid_quantization));
static_assert(error_of<models::bad_scale_nan>.tensor == 0 &&
              error_of<models::bad_scale_nan>.reason == static_cast<int>(quantization_problem::scale));
static_assert(error_of<models::bad_zero_point>.code == code_of(frontend_error::tflite_invalid_quantization));
static_assert(error_of<models::bad_zero_point>.tensor == 1 &&
              error_of<models::bad_zero_point>.reason == static_cast<int>(quantization_problem::zero_point));
static_assert(error_of<models::bad_channel_scale>.code == code_of(frontend_error::tflite_invalid_quantization));
static_assert(error_of<models::bad_channel_scale>.tensor == 1 &&
              error_of<models::bad_channel_scale>.reason == static_cast<int>(quantization_problem::channel_scale));
static_assert(error_of<models::bad_multiplier>.code == code_of(frontend_error::tflite_unrepresentable_multiplier));
static_assert(error_of<models::bad_multiplier>.node == 0 && error_of<models::bad_multiplier>.kind == ctnn::op_kind::dense);
static_assert(error_of<models::bad_multiplier>.rejected_value == 61, "2^40 x 1 / 2^-20 = 2^60: frexp exponent 61");
static_assert(error_of<models::bad_logistic_scale>.code == code_of(frontend_error::tflite_unrepresentable_multiplier));
static_assert(error_of<models::bad_logistic_scale>.rejected_value == -12, "2^-40 x 2^27 = 2^-13: frexp exponent -12");

// A failed module keeps the model's interface where the file states it (not for malformed bytes).
static_assert(models::bad_hybrid::imported.input_count == 1 && models::bad_hybrid::imported.output_count == 1);
static_assert(models::bad_hybrid::imported.input_tensor(0).dims == ctnn::make_shape(1, 4));
static_assert(models::bad_uint8::imported.input_count == 1 && models::bad_uint8::imported.output_count == 1);
static_assert(models::bad_malformed::imported.input_count == 0);

// Every frontend code has a run-time sentence: the static_assert's (compile_errors.hpp) statement in words
// for the command line, where the numbers are on the line below, not in template arguments. Each begins as
// its static_assert does: the compile-fail tests match that part, ctnn-inspect's tests the same part in its
// output.
static_assert([] {
  for (auto c = static_cast<int>(frontend_error::tflite_malformed_model);
       c <= static_cast<int>(frontend_error::tflite_unsupported_init_subgraph); ++c)
    if (ctnn::tflite::sentence_of(static_cast<ctnn::error_code>(c)).empty()) return false;
  return true;
}());

namespace {
std::string words(const ctnn::diagnostic& d) {
  std::string text;
  ctnn::tflite::describe(d, [&](std::string_view s) { text += s; });
  return text;
}
}  // namespace

TEST_CASE("diagnostics in words") {
  CHECK(words(error_of<models::bad_unsupported_op>) ==
        "error: ctnn::tflite: the model uses an operator that ctnn does not support (the op below: its index in "
        "execution order and its TFLite builtin operator).\n  op 1 (LSH_PROJECTION \"output\")\n");
  CHECK(words(error_of<models::bad_hybrid>).ends_with("\n  op 0 (FULLY_CONNECTED \"output\"), weight tensor 1\n"));
  CHECK(words(error_of<models::bad_dynamic_shape>).ends_with("\n  tensor 0, shape [-1,4]\n"));
  CHECK(words(error_of<models::bad_malformed>).ends_with("\n  byte offset 44: expected an offset to an object inside the file\n"));
  CHECK(words(error_of<models::bad_softmax_beta>).ends_with("\n  op 1 (SOFTMAX \"output\"), beta 2000000 millionths\n"));
  CHECK(words(error_of<models::bad_fused_tanh>).ends_with("\n  op 0 (CONV_2D \"output\"), fused activation TANH (4)\n"));
  CHECK(words(error_of<models::bad_uint8>).ends_with("\n  op 0 (RELU \"output\"), UINT8 tensor 0\n"));
  CHECK(words(error_of<models::uint8_conv>) ==
        "error: ctnn::tflite: this op reads or writes a UINT8 tensor, which TFLM runs only at QUANTIZE (uint8 to int8, "
        "int8 to uint8), DEQUANTIZE (uint8 to float32) and the ops that move bytes (REVERSE_V2, RESHAPE, SQUEEZE, "
        "BROADCAST_TO, SHAPE): the op and the tensor are below.\n  op 0 (CONV_2D \"conv\"), UINT8 tensor 0\n");
  CHECK(words(error_of<models::uint8_add>).ends_with("\n  op 0 (ADD \"x_plus_x\"), UINT8 tensor 0\n"));
  CHECK(words(error_of<models::uint8_quantize_from_f32>).ends_with("\n  op 0 (QUANTIZE \"y\"), UINT8 tensor 1\n"));
  CHECK(words(error_of<models::uint8_quantize_unscaled>)
            .ends_with("\n  op 0 (quantize \"y\"), tensor 1, a UINT8 QUANTIZE result without a scale (TFLM's Prepare requires one)\n"));
  CHECK(words(error_of<models::bad_pad_not_constant>).ends_with("\n  op 0 (PAD \"output\"), operand 1\n"));
  CHECK(words(error_of<models::bad_arg_max_two_axes>).ends_with("\n  op 0 (ARG_MAX \"y\"), operand 1\n"));
  CHECK(words(error_of<models::bad_reduce_max_requantized>)
            .ends_with("\n  op 0 (reduce_max \"y\"), tensor 2, an int8 REDUCE_MAX/REDUCE_MIN result whose scale or zero point is not its input's (TFLM "
                       "runs only those)\n"));
  CHECK(words(error_of<models::bad_scale_nan>).ends_with("\n  tensor 0, a scale that is not finite or outside [2^-60, 2^60]\n"));
  CHECK(words(error_of<models::bad_zero_point>).ends_with("\n  tensor 1, a zero point outside the range of the tensor's type\n"));
  CHECK(words(error_of<models::bad_multiplier>).ends_with("\n  op 0 (FULLY_CONNECTED \"output\"), shift 61\n"));
  CHECK(words(error_of<models::bad_logistic_scale>).ends_with("\n  op 0 (LOGISTIC \"output\"), shift -12\n"));
  CHECK(words(ctnn::diagnostic{}) == "ok\n");
  // A type number the file invents has no name: the number (put_name_or_number); the interface side by name.
  const auto code = [](ctnn::frontend_error e) { return ctnn::code_of(e); };
  CHECK(words({code(ctnn::frontend_error::tflite_unsupported_tensor_type), -1, ctnn::op_kind::conv2d, {}, {},
               {.tensor = 3, .rejected_value = 99}})
            .ends_with("\n  tensor 3, type 99\n"));
  CHECK(words({code(ctnn::frontend_error::tflite_too_many_model_io), -1, ctnn::op_kind::conv2d, {}, {},
               {.count_actual = 9, .io_side = 1}})
            .ends_with("\n  outputs 9\n"));
  // An IR code in an imported module: the IR's words for its named details.
  CHECK(words({ctnn::error_code::invalid_axis, 2, ctnn::op_kind::concat, {}, {}, {.axis = 5, .rank_actual = 4}})
            .ends_with(": axis 5 for rank 4\n"));
}
