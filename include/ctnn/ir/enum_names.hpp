#pragma once
// The names of the IR's enums that have no name_of next to them: error codes (with the frontend and memory
// families), facts, pad modes and paddings, as the printers, the metadata JSON and the tools write them.
// A switch without default: -Wswitch flags an enumerator added without a name.
#include <string_view>

#include <ctnn/ir/attributes.hpp>
#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn {

constexpr std::string_view name_of(error_code c) {
  if (is_frontend_error(c)) return name_of(static_cast<frontend_error>(c));
  if (is_memory_error(c)) return name_of(static_cast<memory_error>(c));
  switch (c) {
    case error_code::none: return "none";
    case error_code::input_shapes_differ: return "input_shapes_differ";
    case error_code::weight_count_mismatch: return "weight_count_mismatch";
    case error_code::bias_count_mismatch: return "bias_count_mismatch";
    case error_code::weights_and_bias_disagree: return "weights_and_bias_disagree";
    case error_code::channels_not_divisible: return "channels_not_divisible";
    case error_code::window_larger_than_input: return "window_larger_than_input";
    case error_code::reshape_element_count: return "reshape_element_count";
    case error_code::invalid_reshape_target: return "invalid_reshape_target";
    case error_code::window_all_padding: return "window_all_padding";
    case error_code::pads_beyond_rank: return "pads_beyond_rank";
    case error_code::unsupported_rank: return "unsupported_rank";
    case error_code::invalid_axis: return "invalid_axis";
    case error_code::unknown_input_name: return "unknown_input_name";
    case error_code::too_many_inputs: return "too_many_inputs";
    case error_code::input_count_mismatch: return "input_count_mismatch";
    case error_code::unsupported_dtype: return "unsupported_dtype";
    case error_code::pass_prerequisite_missing: return "pass_prerequisite_missing";
    case error_code::no_model_outputs: return "no_model_outputs";
    case error_code::extent_too_large: return "extent_too_large";
    case error_code::pipeline_rejected: return "pipeline_rejected";
  }
  return "?";
}

constexpr std::string_view name_of(fact f) {
  switch (f) {
    case fact::shapes_inferred: return "shapes_inferred";
    case fact::kernels_lowered: return "kernels_lowered";
    case fact::memory_planned: return "memory_planned";
    case fact::main_lowered: return "main_lowered";
    case fact::function_metadata: return "function_metadata";
    case fact::executor_metadata: return "executor_metadata";
    case fact::kernels_selected: return "kernels_selected";
  }
  return {};  // not a single known fact
}

constexpr std::string_view name_of(pad_mode m) {
  switch (m) {
    case pad_mode::constant: return "constant";
    case pad_mode::reflect: return "reflect";
    case pad_mode::edge: return "edge";
    case pad_mode::wrap: return "wrap";
    case pad_mode::symmetric: return "symmetric";
  }
  return "?";
}

constexpr std::string_view name_of(resize_coordinates c) {
  switch (c) {
    case resize_coordinates::tflite: return "tflite";
    case resize_coordinates::half_pixel: return "half_pixel";
    case resize_coordinates::asymmetric: return "asymmetric";
    case resize_coordinates::pytorch_half_pixel: return "pytorch_half_pixel";
    case resize_coordinates::align_corners: return "align_corners";
    case resize_coordinates::half_pixel_symmetric: return "half_pixel_symmetric";
    case resize_coordinates::tf_half_pixel_for_nn: return "tf_half_pixel_for_nn";
    case resize_coordinates::tf_crop_and_resize: return "tf_crop_and_resize";
  }
  return "?";
}

constexpr std::string_view name_of(nearest_rounding r) {
  switch (r) {
    case nearest_rounding::round_prefer_floor: return "round_prefer_floor";
    case nearest_rounding::round_prefer_ceil: return "round_prefer_ceil";
    case nearest_rounding::floor: return "floor";
    case nearest_rounding::ceil: return "ceil";
  }
  return "?";
}

constexpr std::string_view name_of(padding p) {
  switch (p) {
    case padding::valid: return "valid";
    case padding::same: return "same";
    case padding::explicit_pads: return "explicit";
  }
  return "?";
}

namespace detail {  // the names under which the printers and the metadata JSON have called them

constexpr std::string_view error_code_name(error_code c) { return name_of(c); }
constexpr std::string_view fact_name(fact f) { return name_of(f); }
constexpr std::string_view padding_name(padding p) { return name_of(p); }

}  // namespace detail

}  // namespace ctnn
