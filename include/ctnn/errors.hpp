#pragma once
// Compile errors for models that cannot be compiled. A pass records a diagnostic; diagnostic_check
// turns it into one of the class templates of errors/ (one header per family: graph, memory, pipeline;
// the frontends' own next to them, frontend/tflite/compile_errors.hpp and frontend/onnx/compile_errors.hpp),
// whose static_assert states the problem in words and whose template arguments (shown by the compiler)
// carry the numbers: op index and kind, shapes, counts.
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/errors/graph.hpp>
#include <ctnn/errors/kernels.hpp>
#include <ctnn/errors/memory.hpp>
#include <ctnn/errors/pipeline.hpp>
#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::errors {

// A frontend's diagnostic whose frontend header is not included (a module built by hand with its code).
template <std::int64_t Code>
struct frontend_diagnostic {
  static_assert(detail::always_false<count<Code>>, "ctnn: the module carries a model-file frontend's diagnostic (its "
                                                   "code is the template argument): include that frontend's header "
                                                   "(<ctnn/frontend/tflite.hpp> or <ctnn/frontend/onnx.hpp>) to see it "
                                                   "in words.");
};

}  // namespace ctnn::errors

namespace ctnn::detail {

// The codes the model-file frontends number from 300 (frontend_error, the TFLite frontend's, from 100 is
// in ir/diagnostic.hpp).
constexpr bool is_frontend_code(error_code c) {
  return static_cast<std::int32_t>(c) >= 300 && static_cast<std::int32_t>(c) < 400;
}

// The errors:: class of a frontend's diagnostic: each frontend specialises it for its codes (a model that
// fails includes its frontend), so that this header depends on no frontend.
template <diagnostic D>
struct frontend_error_class {
  using type = errors::frontend_diagnostic<static_cast<std::int64_t>(D.code)>;
};

// The name a diagnostic carries (ir/diagnostic.hpp: diagnostic_name) as Carrier<'s', 'r', 'a', 'm'>.
template <diagnostic D, template <char...> class Carrier>
constexpr auto named_carrier() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return std::type_identity<Carrier<diagnostic_name_char(D.actual, I)...>>{};
  }(std::make_index_sequence<static_cast<std::size_t>(D.actual.rank)>{});
}
template <diagnostic D, template <char...> class Carrier>
using named_t = typename decltype(named_carrier<D, Carrier>())::type;

// The errors:: class of a failed diagnostic (error_type: the success path spells no name).
template <diagnostic D>
constexpr auto failed_error_type() {
  using op = errors::at_op<D.node, D.kind, node_named_t<D.op_name>>;
  using expected = typename shape_type<D.expected>::type;
  using actual = typename shape_type<D.actual>::type;
  if constexpr (D.code == error_code::input_shapes_differ) return std::type_identity<errors::input_shapes_differ<op, expected, actual>>{};
  else if constexpr (D.code == error_code::weight_count_mismatch) return std::type_identity<errors::weight_count_mismatch<op, errors::count<D.count_expected>, errors::count<D.count_actual>>>{};
  else if constexpr (D.code == error_code::bias_count_mismatch) return std::type_identity<errors::bias_count_mismatch<op, errors::count<D.count_expected>, errors::count<D.count_actual>>>{};
  else if constexpr (D.code == error_code::weights_and_bias_disagree)
    return std::type_identity<errors::weights_and_bias_disagree<op, expected, errors::count<D.weight_elements>,
                                                                errors::count<D.bias_elements>>>{};
  else if constexpr (D.code == error_code::channels_not_divisible) return std::type_identity<errors::channels_not_divisible_by_groups<op, errors::count<D.channels>, errors::count<D.groups>>>{};
  else if constexpr (D.code == error_code::window_larger_than_input) return std::type_identity<errors::window_larger_than_input<op, actual, errors::count<D.expected.dims[0]>,
                                                                                                   errors::count<D.expected.dims[1]>>>{};
  else if constexpr (D.code == error_code::reshape_element_count) return std::type_identity<errors::reshape_changes_element_count<op, expected, actual>>{};
  else if constexpr (D.code == error_code::invalid_reshape_target) return std::type_identity<errors::invalid_reshape_target<op, expected, actual>>{};
  else if constexpr (D.code == error_code::window_all_padding) return std::type_identity<errors::pool_window_all_padding<op, actual, errors::count<D.axis>, errors::count<D.output_position>>>{};
  else if constexpr (D.code == error_code::pads_beyond_rank) return std::type_identity<errors::pads_beyond_rank<op, errors::count<D.axis>, errors::count<D.rank_actual>>>{};
  else if constexpr (D.code == error_code::unsupported_rank) return std::type_identity<errors::unsupported_rank<op, errors::count<D.rank_expected>, errors::count<D.rank_actual>>>{};
  else if constexpr (D.code == error_code::invalid_axis) return std::type_identity<errors::invalid_axis<op, errors::count<D.axis>, errors::count<D.rank_actual>>>{};
  else if constexpr (D.code == error_code::unknown_input_name) return std::type_identity<errors::unknown_input_name<op, errors::count<D.input_slot>, errors::count<D.position>>>{};
  else if constexpr (D.code == error_code::too_many_inputs) return std::type_identity<errors::too_many_inputs<op, errors::count<D.count_actual>, errors::count<D.count_expected>>>{};
  else if constexpr (D.code == error_code::input_count_mismatch) return std::type_identity<errors::input_count_mismatch<op, errors::count<D.count_expected>, errors::count<D.count_actual>>>{};
  else if constexpr (D.code == error_code::unsupported_dtype) return std::type_identity<errors::unsupported_dtype<op, errors::count<D.rejected_value>>>{};
  else if constexpr (D.code == error_code::no_model_outputs) return std::type_identity<errors::model_without_outputs<errors::count<D.count_expected>>>{};
  else if constexpr (D.code == error_code::extent_too_large)
    return std::type_identity<errors::extent_too_large<op, errors::count<D.axis>, errors::count<D.count_actual>>>{};
  else if constexpr (D.code == error_code::pass_prerequisite_missing)
    return std::type_identity<errors::pass_prerequisite_missing<errors::pipeline_position<D.position>,
                                                                errors::missing_fact<static_cast<fact>(D.missing_facts)>>>{};
  else if constexpr (is_frontend_error(D.code) || is_frontend_code(D.code))
    return std::type_identity<typename frontend_error_class<D>::type>{};
  else if constexpr (D.code == code_of(memory_error::pool_budget_exceeded))
    return std::type_identity<errors::pool_budget_exceeded<named_t<D, errors::pool_named>, errors::needed_bytes<D.bytes_needed>,
                                                           errors::limit_bytes<D.bytes_available>,
                                                           errors::over_by_bytes<D.bytes_needed - D.bytes_available>, op>>{};
  else if constexpr (D.code == code_of(memory_error::pin_ambiguous_tensor_name))
    return std::type_identity<errors::pin_names_shared_tensor_name<errors::pin_position<D.position>,
                                                                   named_t<D, errors::tensor_named>,
                                                                   errors::tensor_index<D.tensor>, errors::tensor_index<D.other_tensor>>>{};
  else if constexpr (D.code == code_of(memory_error::pin_unknown_tensor))
    return std::type_identity<errors::pin_names_no_tensor<errors::pin_position<D.position>>>{};
  else if constexpr (D.code == code_of(memory_error::pin_unknown_pool))
    return std::type_identity<errors::pin_names_no_pool<errors::pin_position<D.position>>>{};
  else return std::type_identity<no_error>{};
}
// The errors:: class of a diagnostic (no_error when there is none), named without instantiating it.
template <diagnostic D>
constexpr auto error_type() {
  if constexpr (!D.failed()) return std::type_identity<no_error>{};
  else return failed_error_type<D>();
}
// Deriving from it instantiates the error class: its static_assert is the compile error.
template <diagnostic D>
struct diagnostic_check : decltype(error_type<D>())::type {};

}  // namespace ctnn::detail
