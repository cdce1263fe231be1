#pragma once
// Compile errors for models that cannot be compiled. A pass records a diagnostic; diagnostic_check
// turns it into one of the class templates below, whose static_assert states the problem in words and
// whose template arguments (shown by the compiler) carry the numbers: op index and kind, shapes, counts.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::errors {

// Template-argument carriers, read by people in the compiler's message.
template <std::int32_t Index, op_kind Kind> struct at_op;
template <std::int32_t... Extents> struct dims;
template <std::int64_t N> struct count;
template <std::int64_t Position> struct pipeline_position;
template <fact Missing> struct missing_fact;

namespace detail {
template <class...> inline constexpr bool always_false = false;
}

template <class Op, class Expected, class Actual>
struct input_shapes_differ {
  static_assert(detail::always_false<Op>, "ctnn: the inputs of this op have shapes that cannot be combined "
                                           "(see the op index and both shapes in the template arguments).");
};
template <class Op, class Needed, class Given>
struct weight_count_mismatch {
  static_assert(detail::always_false<Op>, "ctnn: the weight array of this op has the wrong number of elements "
                                           "(needed vs given in the template arguments; conv2d weights are OHWI).");
};
template <class Op, class Needed, class Given>
struct bias_count_mismatch {
  static_assert(detail::always_false<Op>, "ctnn: the bias array of this op needs one element per output channel "
                                           "(needed vs given in the template arguments).");
};
template <class Op, class WeightsPerOutput, class WeightElements, class BiasElements>
struct weights_and_bias_disagree {
  static_assert(detail::always_false<Op>, "ctnn: the weights and the bias of this op imply different output counts "
                                           "(weights per output, weight and bias element counts in the template "
                                           "arguments); fix the wrong one, or give dsl::units<N>.");
};
template <class Op, class Channels, class Groups>
struct channels_not_divisible_by_groups {
  static_assert(detail::always_false<Op>, "ctnn: conv2d groups must divide both the input and output channels.");
};
template <class Op, class Input, class KernelH, class KernelW>
struct window_larger_than_input {
  static_assert(detail::always_false<Op>, "ctnn: the window of this conv/pool op does not fit its (padded) input.");
};
template <class Op, class From, class To>
struct reshape_changes_element_count {
  static_assert(detail::always_false<Op>, "ctnn: a reshape must keep the number of elements.");
};
template <class Op, class Target, class Input>
struct invalid_reshape_target {
  static_assert(detail::always_false<Op>, "ctnn: a reshape extent is positive, 0 (keep) or -1 (infer), with at most "
                                           "one -1 (target and input shapes in the template arguments).");
};
template <class Op, class Input, class Dimension, class OutputPosition>
struct pool_window_all_padding {
  static_assert(detail::always_false<Op>, "ctnn: a window of this pooling op covers only padding (dimension 1 = H, "
                                           "2 = W, and the output position in the template arguments); use smaller "
                                           "pads or dilation.");
};
template <class Op, class Dimension, class Rank>
struct pads_beyond_rank {
  static_assert(detail::always_false<Op>, "ctnn: this pad op gives (before, after) pads for a dimension its input "
                                           "does not have.");
};
template <class Op, class NeededRank, class GivenRank>
struct unsupported_rank {
  static_assert(detail::always_false<Op>, "ctnn: this op needs an input of another rank (NHWC ops need rank 4).");
};
template <class Op, class Axis, class Rank>
struct invalid_axis {
  static_assert(detail::always_false<Op>, "ctnn: the axis of this op is out of range for its input's rank.");
};
template <class Op, class InputSlot, class NodePosition>
struct unknown_input_name {
  static_assert(detail::always_false<Op>, "ctnn::dsl::graph: a node names an input that no earlier node has "
                                           "(or outputs<> names an unknown node; op index -1).");
};
template <class Op, class Inputs, class Limit>
struct too_many_inputs {
  static_assert(detail::always_false<Op>, "ctnn: this op has more inputs than ctnn::max_node_inputs.");
};
template <class Op, class Takes, class Given>
struct input_count_mismatch {
  static_assert(detail::always_false<Op>, "ctnn: this op is given the wrong number of inputs.");
};
template <class Op, class DType>
struct unsupported_dtype {
  static_assert(detail::always_false<Op>, "ctnn: no kernel for this op with this element type yet.");
};
template <class PassPosition, class MissingFacts>
struct pass_prerequisite_missing {
  static_assert(detail::always_false<PassPosition>,
                "ctnn: a pass in the pipeline runs before the pass that produces what it reads (pipeline position "
                "and the missing ctnn::fact bits in the template arguments).");
};

// A pipeline's pass order, checked from the passes' declarations: `Pass` reads `MissingFact`, which no
// pass before it establishes; `ProducerPass` is the pass that does (move `Pass` after it).
struct no_pass_in_the_pipeline_establishes_it {};
template <class Pass, class MissingFact, class ProducerPass>
struct pass_runs_before_its_prerequisite {
  static_assert(detail::always_false<Pass>, "ctnn: this pipeline runs a pass before the pass that produces what it "
                                             "reads (the pass, the missing ctnn::fact and the pass that establishes "
                                             "it are the template arguments).");
};

}  // namespace ctnn::errors

namespace ctnn::detail {

template <shape S, class = std::make_index_sequence<static_cast<std::size_t>(S.rank)>> struct shape_type;
template <shape S, std::size_t... I>
struct shape_type<S, std::index_sequence<I...>> {
  using type = errors::dims<S.dims[I]...>;
};

struct no_error {};

// The errors:: class of a diagnostic (no_error when there is none), named without instantiating it.
template <diagnostic D>
constexpr auto error_type() {
  using op = errors::at_op<D.node, D.kind>;
  using expected = typename shape_type<D.expected>::type;
  using actual = typename shape_type<D.actual>::type;
  using a = errors::count<D.value_a>;
  using b = errors::count<D.value_b>;
  if constexpr (D.code == error_code::input_shapes_differ) return std::type_identity<errors::input_shapes_differ<op, expected, actual>>{};
  else if constexpr (D.code == error_code::weight_count_mismatch) return std::type_identity<errors::weight_count_mismatch<op, a, b>>{};
  else if constexpr (D.code == error_code::bias_count_mismatch) return std::type_identity<errors::bias_count_mismatch<op, a, b>>{};
  else if constexpr (D.code == error_code::weights_and_bias_disagree)
    return std::type_identity<errors::weights_and_bias_disagree<op, expected, a, b>>{};
  else if constexpr (D.code == error_code::channels_not_divisible) return std::type_identity<errors::channels_not_divisible_by_groups<op, a, b>>{};
  else if constexpr (D.code == error_code::window_larger_than_input) return std::type_identity<errors::window_larger_than_input<op, actual, a, b>>{};
  else if constexpr (D.code == error_code::reshape_element_count) return std::type_identity<errors::reshape_changes_element_count<op, expected, actual>>{};
  else if constexpr (D.code == error_code::invalid_reshape_target) return std::type_identity<errors::invalid_reshape_target<op, expected, actual>>{};
  else if constexpr (D.code == error_code::window_all_padding) return std::type_identity<errors::pool_window_all_padding<op, actual, a, b>>{};
  else if constexpr (D.code == error_code::pads_beyond_rank) return std::type_identity<errors::pads_beyond_rank<op, a, b>>{};
  else if constexpr (D.code == error_code::unsupported_rank) return std::type_identity<errors::unsupported_rank<op, a, b>>{};
  else if constexpr (D.code == error_code::invalid_axis) return std::type_identity<errors::invalid_axis<op, a, b>>{};
  else if constexpr (D.code == error_code::unknown_input_name) return std::type_identity<errors::unknown_input_name<op, a, b>>{};
  else if constexpr (D.code == error_code::too_many_inputs) return std::type_identity<errors::too_many_inputs<op, a, b>>{};
  else if constexpr (D.code == error_code::input_count_mismatch) return std::type_identity<errors::input_count_mismatch<op, a, b>>{};
  else if constexpr (D.code == error_code::unsupported_dtype) return std::type_identity<errors::unsupported_dtype<op, a>>{};
  else if constexpr (D.code == error_code::pass_prerequisite_missing)
    return std::type_identity<errors::pass_prerequisite_missing<errors::pipeline_position<D.value_a>,
                                                                errors::missing_fact<static_cast<fact>(D.value_b)>>>{};
  else return std::type_identity<no_error>{};
}
// Deriving from it instantiates the error class: its static_assert is the compile error.
template <diagnostic D>
struct diagnostic_check : decltype(error_type<D>())::type {};

}  // namespace ctnn::detail
