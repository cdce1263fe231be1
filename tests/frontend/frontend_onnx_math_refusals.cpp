// The onnx_math family's models that ctnn refuses (scripts/gen_op_tests_onnx_math.py writes them): the diagnostic
// of each import names the node's op, and the attribute, operand, axis or element type at fault.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include "frontend/import_checks.hpp"

#include <ctnn/models/onnx_math_refused_celu_alpha_zero.hpp>
#include <ctnn/models/onnx_math_refused_dropout_training.hpp>
#include <ctnn/models/onnx_math_refused_gelu_int8.hpp>
#include <ctnn/models/onnx_math_refused_gelu_approximate.hpp>
#include <ctnn/models/onnx_math_refused_instance_norm_scale_shape.hpp>
#include <ctnn/models/onnx_math_refused_layer_norm_axis.hpp>
#include <ctnn/models/onnx_math_refused_mod_integer_form.hpp>
#include <ctnn/models/onnx_math_refused_group_norm_groups.hpp>
#include <ctnn/models/onnx_math_refused_mish_integer.hpp>
#include <ctnn/models/onnx_math_refused_pow_integer_exponent.hpp>
#include <ctnn/models/onnx_linear_refused_einsum_diagonal.hpp>
#include <ctnn/models/onnx_linear_refused_einsum_three_operands.hpp>
#include <ctnn/models/onnx_reduce_refused_hardmax_axis_outside.hpp>
#include <ctnn/models/onnx_reduce_refused_top_k_computed_k.hpp>
#include <ctnn/models/onnx_reduce_refused_top_k_k_too_large.hpp>

namespace {

namespace models = ctnn::models;
using ctnn::op_kind;
using ctnn::onnx::onnx_error;
using ctnn_test::error_of;

constexpr auto code = [](onnx_error e) { return ctnn::onnx::code_of(e); };
constexpr auto attribute = [](ctnn::onnx::attribute a) { return static_cast<std::int64_t>(a); };
constexpr auto op = [](ctnn::onnx::op_type t) { return static_cast<std::int64_t>(t); };

// Gelu's approximate neither "none" nor "tanh"; Celu with alpha 0 (x / alpha).
static_assert(error_of<models::onnx_math_refused_gelu_approximate>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_math_refused_gelu_approximate>.attribute == attribute(ctnn::onnx::attribute::approximate) &&
              error_of<models::onnx_math_refused_gelu_approximate>.operator_code == op(ctnn::onnx::op_type::Gelu));
static_assert(error_of<models::onnx_math_refused_celu_alpha_zero>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_math_refused_celu_alpha_zero>.attribute == attribute(ctnn::onnx::attribute::alpha) &&
              error_of<models::onnx_math_refused_celu_alpha_zero>.operator_code == op(ctnn::onnx::op_type::Celu));
// InstanceNormalization's scale of 5 for 4 channels; LayerNormalization's axis outside X's rank.
static_assert(error_of<models::onnx_math_refused_instance_norm_scale_shape>.code == code(onnx_error::unsupported_rank) &&
              error_of<models::onnx_math_refused_instance_norm_scale_shape>.input_slot == 1 &&
              error_of<models::onnx_math_refused_instance_norm_scale_shape>.operator_code ==
                  op(ctnn::onnx::op_type::InstanceNormalization));
static_assert(error_of<models::onnx_math_refused_layer_norm_axis>.code == ctnn::error_code::invalid_axis &&
              error_of<models::onnx_math_refused_layer_norm_axis>.kind == op_kind::layer_norm &&
              error_of<models::onnx_math_refused_layer_norm_axis>.axis == 2);
// Dropout with training_mode a constant true (an inference runs Dropout as the identity only).
static_assert(error_of<models::onnx_math_refused_dropout_training>.code == code(onnx_error::operand_value) &&
              error_of<models::onnx_math_refused_dropout_training>.input_slot == 2);

// A float Mod without fmod 1 (ONNX defines fmod 0 on integers only); Pow of an INT64 exponent (float32 only).
static_assert(error_of<models::onnx_math_refused_mod_integer_form>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_math_refused_mod_integer_form>.attribute == attribute(ctnn::onnx::attribute::fmod));
static_assert(error_of<models::onnx_math_refused_pow_integer_exponent>.code == code(onnx_error::operand_type) &&
              error_of<models::onnx_math_refused_pow_integer_exponent>.input_slot == 1 &&
              error_of<models::onnx_math_refused_pow_integer_exponent>.operator_code == op(ctnn::onnx::op_type::Pow));

// Mish of INT32 (floating-point types only); TopK of a computed K (a run-time shape) and of K 6 on an axis of 5;
// Hardmax with axis 2 on a rank-2 input.
static_assert(error_of<models::onnx_math_refused_mish_integer>.code == code(onnx_error::operand_type) &&
              error_of<models::onnx_math_refused_mish_integer>.input_slot == 0 &&
              error_of<models::onnx_math_refused_mish_integer>.operator_code == op(ctnn::onnx::op_type::Mish));
static_assert(error_of<models::onnx_reduce_refused_top_k_computed_k>.code == code(onnx_error::unsupported_operand) &&
              error_of<models::onnx_reduce_refused_top_k_computed_k>.input_slot == 1 &&
              error_of<models::onnx_reduce_refused_top_k_computed_k>.operator_code == op(ctnn::onnx::op_type::TopK));
static_assert(error_of<models::onnx_reduce_refused_top_k_k_too_large>.code == code(onnx_error::operand_value) &&
              error_of<models::onnx_reduce_refused_top_k_k_too_large>.input_slot == 1 &&
              error_of<models::onnx_reduce_refused_top_k_k_too_large>.operator_code == op(ctnn::onnx::op_type::TopK));
static_assert(error_of<models::onnx_reduce_refused_hardmax_axis_outside>.code == ctnn::error_code::invalid_axis &&
              error_of<models::onnx_reduce_refused_hardmax_axis_outside>.kind == op_kind::hardmax &&
              error_of<models::onnx_reduce_refused_hardmax_axis_outside>.axis == 2);

// Einsum of a diagonal ("ii->i") and of three operands: the equation is named.
static_assert(error_of<models::onnx_linear_refused_einsum_diagonal>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_linear_refused_einsum_diagonal>.attribute == attribute(ctnn::onnx::attribute::equation) &&
              error_of<models::onnx_linear_refused_einsum_diagonal>.operator_code == op(ctnn::onnx::op_type::Einsum));
static_assert(error_of<models::onnx_linear_refused_einsum_three_operands>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_linear_refused_einsum_three_operands>.attribute == attribute(ctnn::onnx::attribute::equation));

// GroupNormalization of 4 groups over 6 channels.
static_assert(error_of<models::onnx_math_refused_group_norm_groups>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_math_refused_group_norm_groups>.attribute == attribute(ctnn::onnx::attribute::num_groups) &&
              error_of<models::onnx_math_refused_group_norm_groups>.operator_code == op(ctnn::onnx::op_type::GroupNormalization));

// TFLite: an int8 GELU (TFLM's lookup table; ctnn's unary_function runs float32 only).
static_assert(error_of<models::onnx_math_refused_gelu_int8>.code == ctnn::error_code::unsupported_dtype &&
              error_of<models::onnx_math_refused_gelu_int8>.kind == op_kind::unary_function &&
              error_of<models::onnx_math_refused_gelu_int8>.rejected_value == static_cast<std::int64_t>(ctnn::dtype::i8));

}  // namespace

TEST_CASE("an unsupported Gelu approximation is described with the op, the attribute and its text") {
  std::string text;
  using model = models::onnx_math_refused_gelu_approximate;
  ctnn::onnx::describe(error_of<model>, model::bytes.data(), model::bytes.size(), [&](std::string_view s) { text += s; });
  CHECK(text.find("Gelu") != std::string::npos);
  CHECK(text.find("approximate") != std::string::npos);
  CHECK(text.find("\"erf\"") != std::string::npos);
}

TEST_CASE("a refused Einsum is described with the op and its equation") {
  std::string text;
  using model = models::onnx_linear_refused_einsum_diagonal;
  ctnn::onnx::describe(error_of<model>, model::bytes.data(), model::bytes.size(), [&](std::string_view s) { text += s; });
  CHECK(text.find("Einsum") != std::string::npos);
  CHECK(text.find("\"ii->i\"") != std::string::npos);
}
