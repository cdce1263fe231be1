#pragma once
// Compile errors for models that cannot be compiled. A pass records a diagnostic; check_diagnostic
// turns it into one of the class templates below, whose static_assert states the problem in words and
// whose template arguments (shown by the compiler) carry the numbers: op index and kind, shapes, counts.
#include <cstddef>
#include <cstdint>
#include <utility>

#include <ctnn/ir/diagnostic.hpp>

namespace ctnn::errors {

// Template-argument carriers, read by people in the compiler's message.
template <std::int32_t Index, op_kind Kind> struct at_op;
template <std::int32_t... Extents> struct dims;
template <std::int64_t N> struct count;

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

}  // namespace ctnn::errors

namespace ctnn::detail {

template <shape S, class = std::make_index_sequence<static_cast<std::size_t>(S.rank)>> struct shape_type;
template <shape S, std::size_t... I>
struct shape_type<S, std::index_sequence<I...>> {
  using type = errors::dims<S.dims[I]...>;
};

// Instantiating this with a failed diagnostic produces the error; with none, it is empty.
template <diagnostic D>
constexpr bool check_diagnostic() {
  using op = errors::at_op<D.node, D.kind>;
  using expected = typename shape_type<D.expected>::type;
  using actual = typename shape_type<D.actual>::type;
  using a = errors::count<D.value_a>;
  using b = errors::count<D.value_b>;
  if constexpr (D.code == error_code::input_shapes_differ) return sizeof(errors::input_shapes_differ<op, expected, actual>) > 0;
  else if constexpr (D.code == error_code::weight_count_mismatch) return sizeof(errors::weight_count_mismatch<op, a, b>) > 0;
  else if constexpr (D.code == error_code::bias_count_mismatch) return sizeof(errors::bias_count_mismatch<op, a, b>) > 0;
  else if constexpr (D.code == error_code::channels_not_divisible) return sizeof(errors::channels_not_divisible_by_groups<op, a, b>) > 0;
  else if constexpr (D.code == error_code::window_larger_than_input) return sizeof(errors::window_larger_than_input<op, actual, a, b>) > 0;
  else if constexpr (D.code == error_code::reshape_element_count) return sizeof(errors::reshape_changes_element_count<op, expected, actual>) > 0;
  else if constexpr (D.code == error_code::unsupported_rank) return sizeof(errors::unsupported_rank<op, a, b>) > 0;
  else if constexpr (D.code == error_code::invalid_axis) return sizeof(errors::invalid_axis<op, a, b>) > 0;
  else if constexpr (D.code == error_code::unknown_input_name) return sizeof(errors::unknown_input_name<op, a, b>) > 0;
  else if constexpr (D.code == error_code::too_many_inputs) return sizeof(errors::too_many_inputs<op, a, b>) > 0;
  else if constexpr (D.code == error_code::input_count_mismatch) return sizeof(errors::input_count_mismatch<op, a, b>) > 0;
  else if constexpr (D.code == error_code::unsupported_dtype) return sizeof(errors::unsupported_dtype<op, a>) > 0;
  else if constexpr (D.code == error_code::pass_prerequisite_missing) return sizeof(errors::pass_prerequisite_missing<a, b>) > 0;
  else return true;
}

}  // namespace ctnn::detail
