#pragma once
// The list of op descriptors (ops/descriptor.hpp) and the dispatch over it: ops::visit(kind, f) calls f
// with the descriptor of a kind known at run time (or in a constant evaluation), ops::descriptor_of<K> is
// the descriptor of a kind known at compile time. Adding an op kind: its descriptor header, one entry below.
//
// The dispatch is a fold over the list (no switch naming every kind): a constant evaluation compares the
// kind with each entry until it matches.
#include <array>
#include <cstddef>
#include <tuple>

#include <ctnn/ops/abs.hpp>
#include <ctnn/ops/add.hpp>
#include <ctnn/ops/add_n.hpp>
#include <ctnn/ops/avg_pool.hpp>
#include <ctnn/ops/batch_matmul.hpp>
#include <ctnn/ops/batch_norm.hpp>
#include <ctnn/ops/ceil.hpp>
#include <ctnn/ops/clip.hpp>
#include <ctnn/ops/concat.hpp>
#include <ctnn/ops/conv2d.hpp>
#include <ctnn/ops/cos.hpp>
#include <ctnn/ops/dequantize.hpp>
#include <ctnn/ops/crop.hpp>
#include <ctnn/ops/dense.hpp>
#include <ctnn/ops/depthwise_conv2d.hpp>
#include <ctnn/ops/descriptor.hpp>
#include <ctnn/ops/elu.hpp>
#include <ctnn/ops/exp.hpp>
#include <ctnn/ops/fetch_rows.hpp>
#include <ctnn/ops/floor.hpp>
#include <ctnn/ops/gather.hpp>
#include <ctnn/ops/global_avg_pool.hpp>
#include <ctnn/ops/hard_sigmoid.hpp>
#include <ctnn/ops/hard_swish.hpp>
#include <ctnn/ops/l1_normalization.hpp>
#include <ctnn/ops/l2_normalization.hpp>
#include <ctnn/ops/svdf.hpp>
#include <ctnn/ops/recurrent.hpp>
#include <ctnn/ops/leaky_relu.hpp>
#include <ctnn/ops/log.hpp>
#include <ctnn/ops/max_pool.hpp>
#include <ctnn/ops/maximum.hpp>
#include <ctnn/ops/mean.hpp>
#include <ctnn/ops/minimum.hpp>
#include <ctnn/ops/mul.hpp>
#include <ctnn/ops/neg.hpp>
#include <ctnn/ops/pad.hpp>
#include <ctnn/ops/paste.hpp>
#include <ctnn/ops/prelu.hpp>
#include <ctnn/ops/quantize.hpp>
#include <ctnn/ops/reciprocal.hpp>
#include <ctnn/ops/reduce.hpp>
#include <ctnn/ops/relu.hpp>
#include <ctnn/ops/relu6.hpp>
#include <ctnn/ops/relu_0_to_1.hpp>
#include <ctnn/ops/relu_n1_to_1.hpp>
#include <ctnn/ops/reshape.hpp>
#include <ctnn/ops/resize.hpp>
#include <ctnn/ops/round.hpp>
#include <ctnn/ops/rsqrt.hpp>
#include <ctnn/ops/sigmoid.hpp>
#include <ctnn/ops/sin.hpp>
#include <ctnn/ops/slice.hpp>
#include <ctnn/ops/softmax.hpp>
#include <ctnn/ops/sqrt.hpp>
#include <ctnn/ops/square.hpp>
#include <ctnn/ops/sub.hpp>
#include <ctnn/ops/tanh.hpp>
#include <ctnn/ops/tile.hpp>
#include <ctnn/ops/transpose.hpp>
// the logic family
#include <ctnn/ops/cast.hpp>
#include <ctnn/ops/div.hpp>
#include <ctnn/ops/equal.hpp>
#include <ctnn/ops/floor_div.hpp>
#include <ctnn/ops/floor_mod.hpp>
#include <ctnn/ops/greater.hpp>
#include <ctnn/ops/greater_equal.hpp>
#include <ctnn/ops/less.hpp>
#include <ctnn/ops/less_equal.hpp>
#include <ctnn/ops/logical_and.hpp>
#include <ctnn/ops/logical_not.hpp>
#include <ctnn/ops/logical_or.hpp>
#include <ctnn/ops/logical_xor.hpp>
#include <ctnn/ops/not_equal.hpp>
#include <ctnn/ops/select.hpp>
#include <ctnn/ops/squared_difference.hpp>
#include <ctnn/ops/transpose_conv2d.hpp>
#include <ctnn/ops/l2_pool.hpp>
#include <ctnn/ops/log_softmax.hpp>
// the gather/scatter family
#include <ctnn/ops/cumsum.hpp>
#include <ctnn/ops/gather_nd.hpp>
#include <ctnn/ops/reverse_sequence.hpp>
#include <ctnn/ops/scatter_nd.hpp>
#include <ctnn/ops/update_slice.hpp>
#include <ctnn/ops/zeros_like.hpp>
// the onnx_math family
#include <ctnn/ops/binary_function.hpp>
#include <ctnn/ops/layer_norm.hpp>
#include <ctnn/ops/unary_function.hpp>
// the detection family
#include <ctnn/ops/detection_postprocess.hpp>

namespace ctnn::ops {

template <class... Descriptors>
struct op_list {};

// Every op kind written as a descriptor. The op kinds not listed are still described by the switches of
// the layers (being moved here: docs/design.md §2, "One descriptor per op kind"). visit compares the kinds
// in this order: the kinds every model has come first.
using all = op_list<conv2d, depthwise_conv2d, dense, add, mul, max_pool, avg_pool, global_avg_pool, relu, relu6, sigmoid, tanh, clip, sub, mean, transpose, crop, paste, fetch_rows, softmax, pad, reshape,
                    batch_matmul, concat, batch_norm, abs, neg, sqrt, rsqrt, exp, log, sin, cos, floor, ceil, round, square,
                    reciprocal, slice, gather, reduce_sum, reduce_max, reduce_min, reduce_prod, reduce_sum_square,
                    reduce_l1, reduce_l2, reduce_log_sum, reduce_log_sum_exp, arg_max, arg_min, leaky_relu, hard_swish,
                    prelu, elu, relu_n1_to_1, relu_0_to_1, maximum, minimum, hard_sigmoid,
                    // the logic family
                    equal, not_equal, less, less_equal, greater, greater_equal, logical_and, logical_or,
                    logical_xor, logical_not, select, cast, div, floor_div, floor_mod, squared_difference,
                    // the spatial family
                    resize_nearest, resize_linear, resize_cubic, add_n, tile,
                    l2_normalization, l1_normalization,
                    // state
                    svdf,
                    // the recurrent family
                    lstm, gru, rnn,
                    // the transpose_conv family
                    transpose_conv2d, l2_pool, log_softmax,
                    // the gather/scatter family
                    gather_nd, cumsum, zeros_like, update_slice, scatter_nd, reverse_sequence,
                    // the onnx_math family
                    unary_function, binary_function, layer_norm,
                    // the detection family
                    detection_postprocess,
                    quantize, dequantize>;

namespace detail {

template <class... Descriptors>
constexpr bool kinds_are_unique(op_list<Descriptors...>) {
  constexpr std::array<op_kind, sizeof...(Descriptors)> kinds{Descriptors::kind...};
  for (std::size_t i = 0; i < kinds.size(); ++i)
    for (std::size_t j = i + 1; j < kinds.size(); ++j)
      if (kinds[i] == kinds[j]) return false;
  return true;
}
static_assert(kinds_are_unique(all{}), "ctnn::ops::all: two descriptors name the same op_kind.");

template <class... Descriptors>
constexpr bool all_are_descriptors(op_list<Descriptors...>) {
  return (op_descriptor<Descriptors> && ...);
}
static_assert(all_are_descriptors(all{}), "ctnn::ops::all: an entry lacks `kind` or `operands` (ops/descriptor.hpp).");

template <op_kind K, class... Descriptors>
constexpr std::size_t index_of(op_list<Descriptors...>) {
  constexpr std::array<op_kind, sizeof...(Descriptors)> kinds{Descriptors::kind...};
  for (std::size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i] == K) return i;
  return kinds.size();
}

template <std::size_t I, class... Descriptors>
auto at(op_list<Descriptors...>) -> std::tuple_element_t<I, std::tuple<Descriptors...>>;

template <class... Descriptors>
constexpr std::size_t size(op_list<Descriptors...>) {
  return sizeof...(Descriptors);
}

}  // namespace detail

// Whether op kind K has a descriptor.
template <op_kind K>
inline constexpr bool has_descriptor = detail::index_of<K>(all{}) < detail::size(all{});

// The descriptor of op kind K (which must have one).
template <op_kind K>
  requires has_descriptor<K>
using descriptor_of = decltype(detail::at<detail::index_of<K>(all{})>(all{}));

// Calls f(D{}) with the descriptor D of `kind`; false when `kind` has none.
template <class F>
constexpr bool visit(op_kind kind, F&& f) {
  return [&]<class... Descriptors>(op_list<Descriptors...>) {
    return ((kind == Descriptors::kind ? (static_cast<void>(f(Descriptors{})), true) : false) || ...);
  }(all{});
}

// f(D{}) for the descriptor D of `kind`, or `otherwise` when `kind` has none.
template <class R, class F>
constexpr R visit_or(op_kind kind, R otherwise, F&& f) {
  R result = otherwise;
  visit(kind, [&](auto d) { result = f(d); });
  return result;
}

// Whether op kind `kind` reads constant weights as its operand 1 (its descriptor's has_weights).
constexpr bool has_weights(op_kind kind) {
  return visit_or(kind, false, [](auto d) { return d.has_weights; });
}

}  // namespace ctnn::ops
