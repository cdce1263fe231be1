#pragma once
// The list of op descriptors (ops/descriptor.hpp) and the dispatch over it: ops::visit(kind, f) calls f
// with the descriptor of a kind known at run time (or in a constant evaluation), ops::descriptor_of<K> is
// the descriptor of a kind known at compile time. Adding an op kind: its descriptor header, one entry below.
//
// The dispatch is a fold over the list (no switch naming every kind): a constant evaluation compares the
// kind with each entry until it matches.
#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>

#include <ctnn/ops/abs.hpp>
#include <ctnn/ops/add.hpp>
#include <ctnn/ops/add_n.hpp>
#include <ctnn/ops/assign_variable.hpp>
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
#include <ctnn/ops/sequence_lstm.hpp>
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
// ONNX operators of issue #28
#include <ctnn/ops/gather_elements.hpp>
#include <ctnn/ops/hardmax.hpp>
#include <ctnn/ops/lp_pool.hpp>
#include <ctnn/ops/lrn.hpp>
#include <ctnn/ops/scatter_elements.hpp>
#include <ctnn/ops/top_k.hpp>

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
                    svdf, sequence_lstm,
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
                    // ONNX operators of issue #28
                    gather_elements, scatter_elements, top_k, hardmax, lp_pool, lrn,
                    // resource variables
                    assign_variable,
                    quantize, dequantize>;

namespace detail {

// One mark per kind (a pairwise comparison of the hundred kinds cost every translation unit ~40 ms of g++,
// docs/compile_time.md).
template <class... Descriptors>
constexpr bool kinds_are_unique(op_list<Descriptors...>) {
  std::array<bool, op_kind_count + 1> seen{};
  bool unique = true;
  const auto mark = [&](op_kind kind) {
    const auto k = static_cast<std::size_t>(kind);
    if (k >= seen.size() || seen[k]) unique = false;
    else seen[k] = true;
  };
  (mark(Descriptors::kind), ...);
  return unique;
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

// A descriptor's plain facts (its static data members, ops/descriptor.hpp's op_defaults says what each
// means) as one value. They are gathered once for every kind into a table, so that asking a fact is an
// array access: a visit per call site would instantiate a function for each of the hundred descriptors at
// every site, a cost every translation unit pays (docs/compile_time.md).
struct op_facts {
  bool elementwise;
  std::uint32_t in_place_slots;
  std::uint32_t state_operands;
  activation fuses_as;
  bool takes_fused_activation;
  bool non_negative_result;
  bool plain_integer_kernel;
  bool has_weights;
  bool result_type_from_attributes;
  bool int16_symmetric;
  std::int32_t int16_result_exponent;
  bool int8_result_is_an_input_value;
  integer_evaluation on_known_integers;
  onnx_integer_kernel onnx_integer;
  // Its kernels by element type: bit t, has_kernel(dtype t); bit 8 * in + out, has_result_kernel(in, out).
  std::uint8_t kernel_types;
  std::uint64_t result_kernel_types;
  std::uint32_t packed_integer_operands;
  bool joins_operands;
  bool windows_its_input;
};

constexpr int dtype_count = static_cast<int>(dtype::b8) + 1;
static_assert(dtype_count <= 8, "ctnn::ops::op_facts: a byte per element type set");

namespace detail {

// One function per descriptor (its kernels by element type computed inline: a function template each would
// be three instantiations per descriptor in every translation unit).
template <class D>
constexpr op_facts facts_of_descriptor() {
  std::uint8_t kernel_types = 0;
  std::uint64_t result_kernel_types = 0;
  for (int in = 0; in < dtype_count; ++in) {
    if (D::has_kernel(static_cast<dtype>(in))) kernel_types = static_cast<std::uint8_t>(kernel_types | 1u << in);
    for (int out = 0; out < dtype_count; ++out)
      if (D::has_result_kernel(static_cast<dtype>(in), static_cast<dtype>(out)))
        result_kernel_types |= std::uint64_t{1} << (8 * in + out);
  }
  return {D::elementwise,
          D::in_place_slots,
          D::state_operands,
          D::fuses_as,
          D::takes_fused_activation,
          D::non_negative_result,
          D::plain_integer_kernel,
          D::has_weights,
          D::result_type_from_attributes,
          D::int16_symmetric,
          D::int16_result_exponent,
          D::int8_result_is_an_input_value,
          D::on_known_integers,
          D::onnx_integer,
          kernel_types,
          result_kernel_types,
          D::packed_integer_operands,
          D::joins_operands,
          D::windows_its_input};
}

// Every kind's facts; a kind without a descriptor (op_kind::none) has op_defaults'.
template <class... Descriptors>
constexpr std::array<op_facts, op_kind_count + 1> facts_of_kinds(op_list<Descriptors...>) {
  std::array<op_facts, op_kind_count + 1> facts{};
  for (auto& f : facts) f = facts_of_descriptor<op_defaults>();
  ((facts[static_cast<std::size_t>(Descriptors::kind)] = facts_of_descriptor<Descriptors>()), ...);
  return facts;
}
inline constexpr auto facts_by_kind = facts_of_kinds(all{});

}  // namespace detail

// The facts of op kind `kind` (op_defaults' for a kind without a descriptor or out of range).
constexpr const op_facts& facts(op_kind kind) {
  const auto k = static_cast<std::size_t>(static_cast<std::uint32_t>(kind));
  return detail::facts_by_kind[k < detail::facts_by_kind.size() ? k : static_cast<std::size_t>(op_kind::none)];
}

// Whether op kind `kind` has a reference kernel for first inputs of `type` (its descriptor's has_kernel).
constexpr bool has_kernel(op_kind kind, dtype type) {
  return (facts(kind).kernel_types >> static_cast<int>(type) & 1u) != 0;
}

// Whether op kind `kind`'s kernel writes results of `out` from first inputs of `in` (its descriptor's
// has_result_kernel).
constexpr bool has_result_kernel(op_kind kind, dtype in, dtype out) {
  return (facts(kind).result_kernel_types >> (8 * static_cast<int>(in) + static_cast<int>(out)) & 1u) != 0;
}

// Whether op kind `kind` reads constant weights as its operand 1 (its descriptor's has_weights).
constexpr bool has_weights(op_kind kind) {
  return facts(kind).has_weights;
}

}  // namespace ctnn::ops
