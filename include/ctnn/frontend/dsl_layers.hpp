#pragma once
// The C++ DSL's layers (dsl.hpp): inputs, constants, layers with weights, pooling, activations, shape
// changes and joins. Each is a type whose spec() tells the builder the op, its attributes and its
// constants (references to the user's constexpr arrays, never copied).
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include <ctnn/frontend/dsl_options.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::dsl {

// ---------------------------------------------------------------------------------------------------
// What a layer type tells the builder.
struct constant_spec {
  const float* data = nullptr;
  std::int64_t elements = 0;
};

struct layer_spec {
  op_kind kind = op_kind::none;
  op_attributes attrs{};
  std::array<constant_spec, 4> constants{};  // weights, bias (batch_norm: scale, offset, mean, variance)
  std::int32_t constant_count = 0;
  std::int32_t arity = 1;  // activation inputs: 1, 2 (add, mul) or -1 (any number: concat)
};

// Marks a conv/dense without a bias: dsl::conv2d<w, dsl::no_bias, dsl::units<8>, ...>.
struct no_bias_t {};
inline constexpr no_bias_t no_bias{};

namespace detail {

template <auto& Array>
constexpr constant_spec constant_of() {
  using array_type = std::remove_cvref_t<decltype(Array)>;
  if constexpr (std::is_same_v<array_type, no_bias_t>) {
    return {};
  } else {
    constexpr bool float_array =
        std::is_array_v<array_type> && std::is_same_v<std::remove_cv_t<std::remove_extent_t<array_type>>, float>;
    static_assert(float_array, "ctnn::dsl: weights and biases must be constexpr float arrays (e.g. inline constexpr float w[N]).");
    if constexpr (float_array) return {Array, static_cast<std::int64_t>(std::size(Array))};
    else return {nullptr, static_cast<std::int64_t>(std::size(Array))};  // keeps later passes quiet
  }
}

// One instantiation per option, so that the compiler names the offending type: check_option<int>.
template <class Option>
constexpr bool check_option() {
  static_assert(layer_option<Option>,
                "ctnn::dsl: an option of this layer is not a layer option (kernel<>, stride<>, dilation<>, same, "
                "valid, pads<>, groups<>, multiplier<>, units<>, relu, relu6, sigmoid, tanh).");
  return layer_option<Option>;
}

template <op_kind Kind, auto& Weights, auto& Bias, class... Options>
constexpr layer_spec weighted_layer() {
  if constexpr ((check_option<Options>() && ...)) {
    layer_spec s{Kind, attributes_from<Options...>(), {constant_of<Weights>(), constant_of<Bias>()}, 2, 1};
    if (s.constants[1].elements == 0) s.constant_count = 1;
    return s;
  } else {
    return {};
  }
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------------
// Inputs.
template <dtype Type, std::int32_t... Dims>
struct input {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= max_rank, "ctnn::dsl::input<type, dims...>: rank 1 to 6.");
  static_assert(((Dims > 0) && ...), "ctnn::dsl::input<type, dims...>: every extent must be positive.");
  static constexpr dtype type = Type;
  static constexpr shape dims = make_shape(Dims...);
};

// A constant tensor as a graph node: dsl::node<"c", dsl::constant<values, 1, 1, 1, 8>>. Ops whose
// operands are all constants are computed at compile time (fold_constants).
template <auto& Values, std::int32_t... Dims>
struct constant {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= max_rank, "ctnn::dsl::constant<values, dims...>: rank 1 to 6.");
  static constexpr bool is_graph_constant = true;
  static constexpr shape dims = make_shape(Dims...);
  static constexpr constant_spec values() {
    constexpr constant_spec c = detail::constant_of<Values>();
    static_assert(c.elements == dims.elements(), "ctnn::dsl::constant<values, dims...>: the array must have as "
                                                 "many elements as the dims say.");
    return c;
  }
};

// ---------------------------------------------------------------------------------------------------
// Layers with weights.
template <auto& Weights, auto& Bias, class... Options>
struct conv2d {
  static constexpr layer_spec spec() { return detail::weighted_layer<op_kind::conv2d, Weights, Bias, Options...>(); }
};
template <auto& Weights, auto& Bias, class... Options>
struct depthwise_conv2d {
  static constexpr layer_spec spec() {
    return detail::weighted_layer<op_kind::depthwise_conv2d, Weights, Bias, Options...>();
  }
};
template <auto& Weights, auto& Bias, class... Options>
struct dense {
  static constexpr layer_spec spec() { return detail::weighted_layer<op_kind::dense, Weights, Bias, Options...>(); }
};

// Batch normalisation (inference) over the last axis; fold_batch_norm folds it into a conv/dense before it.
template <auto& Scale, auto& Offset, auto& Mean, auto& Variance, class... Options>
struct batch_norm {
  static constexpr layer_spec spec() {
    static_assert((layer_option<Options> && ...), "ctnn::dsl::batch_norm<scale, offset, mean, variance, options...>: "
                                                   "the only option is epsilon<N, D>.");
    layer_spec s{op_kind::batch_norm, attributes_from<Options...>(), {}, 4, 1};
    s.constants = {detail::constant_of<Scale>(), detail::constant_of<Offset>(), detail::constant_of<Mean>(),
                   detail::constant_of<Variance>()};
    return s;
  }
};

// Pooling.
template <class... Options>
struct max_pool {
  static_assert((layer_option<Options> && ...), "ctnn::dsl::max_pool<options...>: kernel<>, stride<>, same/valid/pads<>.");
  static constexpr layer_spec spec() { return {op_kind::max_pool, attributes_from<Options...>(), {}, 0, 1}; }
};
template <class... Options>
struct avg_pool {
  static_assert((layer_option<Options> && ...), "ctnn::dsl::avg_pool<options...>: kernel<>, stride<>, same/valid/pads<>.");
  static constexpr layer_spec spec() { return {op_kind::avg_pool, attributes_from<Options...>(), {}, 0, 1}; }
};
struct global_avg_pool {
  static constexpr layer_spec spec() { return {op_kind::global_avg_pool, {}, {}, 0, 1}; }
};

// Activations: layers of their own, and options of conv/dense/add/mul (fused).
namespace detail {
template <op_kind Kind, activation Fused>
struct activation_layer {
  static constexpr void apply(op_attributes& a) { a.fused = Fused; }
  static constexpr layer_spec spec() { return {Kind, {}, {}, 0, 1}; }
};
}  // namespace detail
struct relu : detail::activation_layer<op_kind::relu, activation::relu> {};
struct relu6 : detail::activation_layer<op_kind::relu6, activation::relu6> {};
struct sigmoid : detail::activation_layer<op_kind::sigmoid, activation::sigmoid> {};
struct tanh : detail::activation_layer<op_kind::tanh, activation::tanh> {};

struct softmax {
  static constexpr layer_spec spec() { return {op_kind::softmax, {}, {}, 0, 1}; }
};

// Shape changes. reshape<dims...>: 0 keeps the input's extent, -1 is inferred (one at most);
// reshape<> keeps the whole shape (a copy).
template <std::int32_t... Dims>
struct reshape {
  static_assert(((Dims >= -1) && ...), "ctnn::dsl::reshape<dims...>: an extent is positive, 0 (keep) or -1 (infer).");
  static_assert(((Dims == -1 ? 1 : 0) + ... + 0) <= 1, "ctnn::dsl::reshape<dims...>: at most one extent may be -1.");
  static constexpr layer_spec spec() {
    op_attributes a{};
    a.target = make_shape(Dims...);
    return {op_kind::reshape, a, {}, 0, 1};
  }
};
using flatten = reshape<0, -1>;

// pad<before0, after0, before1, after1, ...>: one pair per dimension; pad_value<> is not needed: 0.
template <std::int32_t... BeforeAfter>
struct pad {
  static_assert(sizeof...(BeforeAfter) % 2 == 0, "ctnn::dsl::pad<before0, after0, before1, after1, ...>: pairs.");
  static_assert(((BeforeAfter >= 0) && ...), "ctnn::dsl::pad<>: pads must be >= 0.");
  static constexpr layer_spec spec() {
    op_attributes a{};
    std::size_t i = 0;
    ((a.pad.before_after[i++] = BeforeAfter), ...);
    return {op_kind::pad, a, {}, 0, 1};
  }
};

// Joins (graph nodes with several inputs).
template <class... Options>
struct add {
  static constexpr layer_spec spec() { return {op_kind::add, attributes_from<Options...>(), {}, 0, 2}; }
};
template <class... Options>
struct mul {
  static constexpr layer_spec spec() { return {op_kind::mul, attributes_from<Options...>(), {}, 0, 2}; }
};
template <std::int32_t Axis = -1>
struct concat {
  static constexpr layer_spec spec() {
    op_attributes a{};
    a.axis = Axis;
    return {op_kind::concat, a, {}, 0, -1};
  }
};

}  // namespace ctnn::dsl
