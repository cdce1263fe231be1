// The spatial family's models that ctnn refuses (scripts/gen_op_tests_spatial.py writes them): the diagnostic
// of each import names the op, and the option, operand or attribute at fault.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include "frontend/import_checks.hpp"

#include <ctnn/models/onnx_spatial_refused_expand_incompatible.hpp>
#include <ctnn/models/onnx_spatial_refused_lp_normalization_p3.hpp>
#include <ctnn/models/onnx_spatial_refused_lp_pool_3d.hpp>
#include <ctnn/models/onnx_spatial_refused_lp_pool_p0.hpp>
#include <ctnn/models/onnx_spatial_refused_lrn_no_size.hpp>
#include <ctnn/models/onnx_spatial_refused_resize_mode_unknown.hpp>
#include <ctnn/models/onnx_spatial_refused_resize_nearest_antialias.hpp>
#include <ctnn/models/onnx_spatial_refused_resize_sizes_input.hpp>
#include <ctnn/models/onnx_spatial_refused_tile_zero_repeat.hpp>
#include <ctnn/models/spatial_refused_add_n_other_quantization.hpp>
#include <ctnn/models/spatial_refused_broadcast_to_incompatible.hpp>
#include <ctnn/models/spatial_refused_l2_norm_relu.hpp>
#include <ctnn/models/spatial_refused_mirror_pad_reflect_too_far.hpp>
#include <ctnn/models/spatial_refused_resize_bilinear_both_flags.hpp>
#include <ctnn/models/spatial_refused_resize_nearest_size_input.hpp>
#include <ctnn/models/spatial_refused_space_to_batch_not_divisible.hpp>

namespace {

namespace models = ctnn::models;
namespace schema = ctnn::tflite::schema;
using ctnn::frontend_error;
using ctnn::op_kind;
using ctnn::onnx::onnx_error;

using ctnn_test::error_of;

using ctnn_test::refused_operand;

// TFLite: RESIZE_BILINEAR with align_corners and half_pixel_centers (TFLM refuses both); L2_NORMALIZATION with a
// fused RELU (TFLM supports none); a REFLECT pad as large as the extent (TFLM would read outside the input); a
// BROADCAST_TO shape the input does not broadcast to; a SPACE_TO_BATCH_ND block that does not divide the padded
// input; a RESIZE_NEAREST_NEIGHBOR size that is not a constant; ADD_N of int8 inputs quantized differently.
static_assert(error_of<models::spatial_refused_resize_bilinear_both_flags>.code == code_of(frontend_error::tflite_unsupported_option) &&
              error_of<models::spatial_refused_resize_bilinear_both_flags>.reason == schema::resize_bilinear::half_pixel_centers &&
              error_of<models::spatial_refused_resize_bilinear_both_flags>.kind == op_kind::resize_linear);
static_assert(error_of<models::spatial_refused_l2_norm_relu>.code == code_of(frontend_error::tflite_unsupported_option) &&
              error_of<models::spatial_refused_l2_norm_relu>.reason == schema::l2_norm::fused_activation &&
              error_of<models::spatial_refused_l2_norm_relu>.rejected_value == 1);
static_assert(refused_operand<models::spatial_refused_mirror_pad_reflect_too_far>(1, op_kind::pad));
static_assert(refused_operand<models::spatial_refused_broadcast_to_incompatible>(1, op_kind::tile));
static_assert(refused_operand<models::spatial_refused_space_to_batch_not_divisible>(2, op_kind::reshape));
static_assert(refused_operand<models::spatial_refused_resize_nearest_size_input>(1, op_kind::resize_nearest));
static_assert(refused_operand<models::spatial_refused_add_n_other_quantization>(1, op_kind::add_n));

// ONNX: Resize's sizes a graph input; nearest with antialias; a mode ONNX does not define; LpNormalization with
// p 3; a Tile repeat of 0; an Expand shape the input does not broadcast with.
constexpr auto code = [](onnx_error e) { return ctnn::onnx::code_of(e); };
constexpr auto attribute = [](ctnn::onnx::attribute a) { return static_cast<std::int64_t>(a); };
static_assert(error_of<models::onnx_spatial_refused_resize_sizes_input>.code == code(onnx_error::unsupported_operand) &&
              error_of<models::onnx_spatial_refused_resize_sizes_input>.input_slot == 3);
static_assert(error_of<models::onnx_spatial_refused_resize_nearest_antialias>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_spatial_refused_resize_nearest_antialias>.attribute == attribute(ctnn::onnx::attribute::antialias));
static_assert(error_of<models::onnx_spatial_refused_resize_mode_unknown>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_spatial_refused_resize_mode_unknown>.attribute == attribute(ctnn::onnx::attribute::mode));
static_assert(error_of<models::onnx_spatial_refused_lp_normalization_p3>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_spatial_refused_lp_normalization_p3>.attribute == attribute(ctnn::onnx::attribute::p));
static_assert(error_of<models::onnx_spatial_refused_tile_zero_repeat>.code == code(onnx_error::operand_value) &&
              error_of<models::onnx_spatial_refused_tile_zero_repeat>.input_slot == 1);
static_assert(error_of<models::onnx_spatial_refused_expand_incompatible>.code == code(onnx_error::operand_value) &&
              error_of<models::onnx_spatial_refused_expand_incompatible>.input_slot == 1);
// LpPool with p 0; a 3-D LpPool (rank 5); LRN without its required size.
static_assert(error_of<models::onnx_spatial_refused_lp_pool_p0>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_spatial_refused_lp_pool_p0>.attribute == attribute(ctnn::onnx::attribute::p));
static_assert(error_of<models::onnx_spatial_refused_lp_pool_3d>.code == code(onnx_error::unsupported_rank) &&
              error_of<models::onnx_spatial_refused_lp_pool_3d>.input_slot == 0);
static_assert(error_of<models::onnx_spatial_refused_lrn_no_size>.code == code(onnx_error::unsupported_attribute) &&
              error_of<models::onnx_spatial_refused_lrn_no_size>.attribute == attribute(ctnn::onnx::attribute::size));

}  // namespace

TEST_CASE("an unsupported Resize attribute is described with the op and the attribute") {
  std::string text;
  using model = models::onnx_spatial_refused_resize_nearest_antialias;
  ctnn::onnx::describe(error_of<model>, model::bytes.data(), model::bytes.size(), [&](std::string_view s) { text += s; });
  CHECK(text.find("Resize") != std::string::npos);
  CHECK(text.find("antialias") != std::string::npos);
}
