// The detection family's models that ctnn refuses (scripts/gen_op_tests_detection.py writes them): each
// diagnostic names the op and the problem (the FlexBuffers reader alone: frontend_flexbuffers_reader.cpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include "frontend/import_checks.hpp"

#include <ctnn/frontend/flexbuffers.hpp>
#include <ctnn/models/detection_refused_anchors_not_constant.hpp>
#include <ctnn/models/detection_refused_iou_threshold_zero.hpp>
#include <ctnn/models/detection_refused_malformed_flexbuffer.hpp>
#include <ctnn/models/detection_refused_missing_key.hpp>
#include <ctnn/models/detection_refused_output_too_small.hpp>
#include <ctnn/models/detection_refused_scale_beyond_float.hpp>
#include <ctnn/models/detection_refused_three_outputs.hpp>
#include <ctnn/models/detection_refused_truncated_flexbuffer.hpp>
#include <ctnn/models/detection_refused_unknown_custom_code.hpp>

namespace {

namespace models = ctnn::models;
namespace flex = ctnn::flexbuffers;
using ctnn::frontend_error;
using ctnn::op_kind;
using ctnn::tflite::custom_options_problem;
using ctnn_test::error_of;

constexpr auto code = [](frontend_error e) { return ctnn::code_of(e); };
constexpr auto problem = [](custom_options_problem p) { return static_cast<std::int64_t>(p); };

// An unknown custom code: the op is CUSTOM without a row.
static_assert(error_of<models::detection_refused_unknown_custom_code>.code == code(frontend_error::tflite_unsupported_operator) &&
              error_of<models::detection_refused_unknown_custom_code>.operator_code ==
                  static_cast<std::int64_t>(ctnn::tflite::builtin_operator::custom));
// Options: a required key absent (nms_iou_threshold, key 4); a root width of 3; half the bytes; an IoU threshold of 0;
static_assert(error_of<models::detection_refused_missing_key>.code == code(frontend_error::tflite_invalid_custom_options) &&
              error_of<models::detection_refused_missing_key>.reason == problem(custom_options_problem::missing_key) &&
              error_of<models::detection_refused_missing_key>.position == 4 &&
              error_of<models::detection_refused_missing_key>.kind == op_kind::detection_postprocess);
static_assert(error_of<models::detection_refused_malformed_flexbuffer>.reason == problem(custom_options_problem::malformed) &&
              error_of<models::detection_refused_malformed_flexbuffer>.rejected_value ==
                  static_cast<std::int64_t>(flex::expectation::root));
static_assert(error_of<models::detection_refused_truncated_flexbuffer>.code == code(frontend_error::tflite_invalid_custom_options) &&
              error_of<models::detection_refused_truncated_flexbuffer>.reason == problem(custom_options_problem::malformed));
static_assert(error_of<models::detection_refused_iou_threshold_zero>.reason == problem(custom_options_problem::out_of_range) &&
              error_of<models::detection_refused_iou_threshold_zero>.position == 4);
// y_scale (key 5) of 1e300, a double no float holds.
static_assert(error_of<models::detection_refused_scale_beyond_float>.reason == problem(custom_options_problem::out_of_range) &&
              error_of<models::detection_refused_scale_beyond_float>.position == 5);
// Anchors that are not a constant (operand 2); outputs too small for TFLM's writes; three outputs.
static_assert(ctnn_test::refused_operand<models::detection_refused_anchors_not_constant>(2, op_kind::detection_postprocess));
static_assert(error_of<models::detection_refused_output_too_small>.code == ctnn::error_code::input_shapes_differ &&
              error_of<models::detection_refused_output_too_small>.expected == ctnn::make_shape(1, 12, 4));
static_assert(error_of<models::detection_refused_three_outputs>.code == code(frontend_error::tflite_output_count) &&
              error_of<models::detection_refused_three_outputs>.count_actual == 3);

}  // namespace

TEST_CASE("a refused detection model is described with the op, the problem and the key") {
  std::string text;
  using model = models::detection_refused_missing_key;
  ctnn::tflite::describe(error_of<model>, [&](std::string_view s) { text += s; });
  CHECK(text.find("CUSTOM") != std::string::npos);
  CHECK(text.find("nms_iou_threshold") != std::string::npos);
  CHECK(text.find("absent") != std::string::npos);
}
