#pragma once
// Compile errors of a model's graph (the shape rules, lower_te's element types): the classes a graph
// diagnostic (error_code) becomes, and the template-argument carriers every family of errors shares (an
// op, a shape, a count). errors.hpp picks the class of a diagnostic.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/name.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn::errors {

// Template-argument carriers, read by people in the compiler's message. An op: its index, kind and
// name in the model (node_named<'c', 'o', 'n', 'v', '1'>; a name longer than ctnn::name::capacity
// shows its head and tail around "...").
template <char... Name> struct node_named;
template <std::int32_t Index, op_kind Kind, class Name> struct at_op;
template <std::int32_t... Extents> struct dims;
template <std::int64_t N> struct count;
// Which side of a model's interface (a diagnostic's io_side), for the frontends' too-many-inputs errors.
struct model_inputs;
struct model_outputs;
template <std::int64_t IoSide>
using model_side = std::conditional_t<IoSide == 0, model_inputs, model_outputs>;

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
template <class Inputs>
struct model_without_outputs {
  static_assert(detail::always_false<Inputs>,
                "ctnn: the model has no outputs (its graph's output list is empty): nothing it computes would be kept.");
};
template <class Op, class Dimension, class Extent>
struct extent_too_large {
  static_assert(detail::always_false<Op>, "ctnn: this op's result would have an extent above 2^31 - 1 (the "
                                           "dimension and extent in the template arguments).");
};
template <class Op, class DType>
struct unsupported_dtype {
  static_assert(detail::always_false<Op>, "ctnn: no kernel for this op with this element type yet.");
};

}  // namespace ctnn::errors

namespace ctnn::detail {

// A shape as the carrier errors::dims<extents...>.
template <shape S, class = std::make_index_sequence<static_cast<std::size_t>(S.rank)>> struct shape_type;
template <shape S, std::size_t... I>
struct shape_type<S, std::index_sequence<I...>> {
  using type = errors::dims<S.dims[I]...>;
};

struct no_error {};

// A name as the carrier errors::node_named<'c', ...>; only an error's path spells it (the success path of
// the diagnostic check never names the carrier).
template <name N>
constexpr auto spelled_node_name() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return std::type_identity<errors::node_named<N.text[I]...>>{};
  }(std::make_index_sequence<N.size()>{});
}
template <name N>
using node_named_t = typename decltype(spelled_node_name<N>())::type;

}  // namespace ctnn::detail

namespace ctnn::errors {

// Op `Op` of module `M` as the carrier at_op (index, kind, name), for a pass that reports an op of the module
// it runs on; a negative index names no op.
template <const auto& M, std::int32_t Op>
struct module_op_of {
  static constexpr name label = Op < 0 ? name{} : M.op_name(Op);
  using type = at_op<Op, M.node_at(Op < 0 ? 0 : Op).kind, ctnn::detail::node_named_t<label>>;
};
template <const auto& M, std::int32_t Op>
using module_op = typename module_op_of<M, Op>::type;

}  // namespace ctnn::errors
