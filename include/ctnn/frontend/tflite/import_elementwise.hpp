#pragma once
// The TFLite importer's element-wise ops (import.hpp; rows in import_plan.hpp's op_table): ADD, SUB, MUL, PRELU,
// MAXIMUM, MINIMUM, RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1, LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, ELU,
// QUANTIZE, DEQUANTIZE, SOFTMAX, the math of one operand (ABS, NEG, SQRT, RSQRT, EXP, LOG, SIN, COS, FLOOR,
// CEIL, ROUND, SQUARE) and the logic family (the comparisons, LOGICAL_AND/OR/NOT, DIV, FLOOR_DIV, FLOOR_MOD,
// SQUARED_DIFFERENCE: import_binary/import_unary; SELECT_V2, CAST).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

// ADD, SUB, MUL, PRELU, MAXIMUM, MINIMUM, the comparisons, ...: two operands, numpy broadcasting, a fused
// activation (none where the row has no field); out_type the output's (a comparison's bool).
template <class S>
constexpr void import_binary(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  if (!expect_inputs(s, op, p, o, 2, 2)) return;
  im.inputs = {operand(s, o, 0), operand(s, o, 1)};
  im.input_count = 2;
  im.attrs.fused = im.fused;
  im.attrs.out_type = s.m.tensor_at(im.out).type;  // the comparisons' bool
}

// SELECT_V2: condition, x, y (broadcast); out_type = the output's type (x's, which the kind checks).
template <class S>
constexpr void import_select(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 3, 3)) return;
  im.inputs = {operand(s, im.view, 0), operand(s, im.view, 1), operand(s, im.view, 2)};
  im.input_count = 3;
  im.attrs.out_type = s.m.tensor_at(im.out).type;
}

// CAST: the element types TFLM's CAST converts: from float32, int8, int16, int32 or bool to float32, int8,
// int16 or int32 (not to bool, nor int64 either way).
template <class S>
constexpr void import_cast(S& s, op_import& im) {
  import_unary(s, im);
  if (s.failed()) return;
  const auto converts = [](dtype t) { return t == dtype::f32 || t == dtype::i8 || t == dtype::i16 || t == dtype::i32; };
  const tensor& in = s.m.tensor_at(im.inputs[0]);
  const tensor& out = s.m.tensor_at(im.out);
  const bool from_ok = converts(in.type) || in.type == dtype::b8;
  if (!from_ok || !converts(out.type))
    s.fail(error_code::unsupported_dtype, im.op, im.plan.kind,
           {.faulty_operand = from_ok ? 0 : 1,
            .rejected_value = static_cast<std::int64_t>(from_ok ? out.type : in.type)},
           {}, from_ok ? out.dims : in.dims);
}

// RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1, LOGISTIC, TANH, HARD_SWISH, QUANTIZE, DEQUANTIZE, the math of one
// operand: one operand; out_type = the output's type.
template <class S>
constexpr void import_unary(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  if (!expect_inputs(s, op, p, o, 1, 1)) return;
  im.inputs[0] = operand(s, o, 0);
  im.input_count = 1;
  im.attrs.out_type = s.m.tensor_at(im.out).type;
}

// LOG_SOFTMAX: one operand; an int8 result must be quantized as TFLM's kernel writes it (scale 16/256, zero
// point 127: its Prepare refuses others).
template <class S>
constexpr void import_log_softmax(S& s, op_import& im) {
  import_unary(s, im);
  const tensor& y = s.m.tensor_at(im.out);
  if (s.failed() || y.type != dtype::i8 || (y.quant.scale == 16.0f / 256 && y.quant.zero_point == 127)) return;
  s.fail(frontend_error::tflite_invalid_quantization, im.op, im.plan.kind,
         {.tensor = im.out, .reason = static_cast<std::int64_t>(quantization_problem::log_softmax_result)});
}

// LEAKY_RELU: one operand, its alpha (LeakyReluOptions; absent: 0, the schema's default).
template <class S>
constexpr void import_leaky_relu(S& s, op_import& im) {
  import_unary(s, im);
  const float alpha = s.f.reader().template scalar<float>(im.plan.options, schema::leaky_relu::alpha, 0.0f);
  im.attrs.coefficients.alpha_bits = std::bit_cast<std::uint32_t>(alpha);
}

// GELU (float32; its int8 form is TFLM's lookup table, which ctnn does not have: refused, unsupported_dtype):
// one operand, GeluOptions' approximate (absent: false) choosing the tanh
// form.
template <class S>
constexpr void import_gelu(S& s, op_import& im) {
  import_unary(s, im);
  if (s.failed()) return;
  if (const tensor& x = s.m.tensor_at(im.inputs[0]); x.type != dtype::f32)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind, {.rejected_value = static_cast<std::int64_t>(x.type)},
                  {}, x.dims);
  const bool approximate = s.f.reader().template scalar<bool>(im.plan.options, schema::gelu::approximate, false);
  im.attrs.coefficients.function = approximate ? math_function::gelu_tanh : math_function::gelu;
}

// ELU: one operand; TFLite's ELU has no options, its alpha is 1.
template <class S>
constexpr void import_elu(S& s, op_import& im) {
  import_unary(s, im);
  im.attrs.coefficients.alpha_bits = std::bit_cast<std::uint32_t>(1.0f);
}

// SOFTMAX: beta must be 1.
template <class S>
constexpr void import_softmax(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  flatbuffers::reader& r = s.f.reader();
  if (!expect_inputs(s, op, p, o, 1, 1)) return;
  im.inputs[0] = operand(s, o, 0);
  im.input_count = 1;
  const float beta = r.scalar<float>(p.options, schema::softmax::beta, 0.0f);
  if (beta != 1.0f) {
    double millionths = static_cast<double>(beta) * 1e6;
    if (!(millionths > -9e15)) millionths = -9e15;  // also NaN: a number for the diagnostic
    if (millionths > 9e15) millionths = 9e15;
    s.fail(frontend_error::tflite_softmax_beta, op, p.kind,
           {.operator_code = static_cast<std::int64_t>(p.code),
            .rejected_value = static_cast<std::int64_t>(millionths < 0 ? millionths - 0.5 : millionths + 0.5)});
    return;
  }
}

}  // namespace ctnn::tflite::detail
