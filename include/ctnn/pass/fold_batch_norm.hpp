#pragma once
// fold_batch_norm: a batch_norm that follows a conv2d, depthwise_conv2d or dense (with no fused
// activation in between) is folded into that op's weights and bias, computed at compile time:
//   w' = w * scale / sqrt(variance + epsilon)      (per output channel)
//   b' = (b - mean) * scale / sqrt(variance + epsilon) + offset
// The module records recipes; the values are materialised once, in .rodata (runtime/constants.hpp).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

struct fold_batch_norm : detail::op_rewriting_pass<fold_batch_norm> {
  template <class Module, class Uses, class Flags>
  static constexpr void rewrite(Module& m, const Uses& uses, std::int32_t i, Flags& erased) {
    const node bn = m.node_at(i);
    if (bn.kind != op_kind::batch_norm || m.tensor_at(bn.output).type != dtype::f32) return;
    const std::int32_t source = detail::sole_producer(m, uses, bn.inputs[0]);
    if (source < 0 || !foldable(m, uses, m.node_at(source), bn)) return;
    fold(m, m.node_at(source), bn);
    detail::redirect_output(m, source, bn.output);
    erased[static_cast<std::size_t>(i)] = true;
  }

 private:
  // Gives the producer's weights and bias the recipes that fold `bn` into them.
  template <class Module>
  static constexpr void fold(Module& m, node& producer, const node& bn) {
    const shape& w = m.tensor_at(producer.inputs[1]).dims;
    constant_recipe weights = constant_recipe::folding_batch_norm(recipe_kind::batch_norm_weights, bn);
    if (producer.kind == op_kind::depthwise_conv2d) {
      weights.channel_stride = 1;                                                 // 1HWC: channel is the last dim
      weights.channel_count = w.last();
    } else {
      weights.channel_stride = static_cast<std::int32_t>(w.elements() / w[0]);  // OHWI / [out][in]: dim 0
      weights.channel_count = w[0];
    }
    m.tensor_at(producer.inputs[1]).recipe = detail::add_recipe(m, weights);
    const bool had_bias = producer.inputs[2] >= 0;
    if (!had_bias) producer.inputs[2] = bn.inputs[2];  // the offset becomes the bias (the old bias was 0)
    producer.input_count = producer.input_count < 3 ? 3 : producer.input_count;
    m.tensor_at(producer.inputs[2]).recipe =
        detail::add_recipe(m, constant_recipe::folding_batch_norm(recipe_kind::batch_norm_bias, bn, !had_bias));
  }

  // The producer's weights and bias (or, without a bias, the batch norm's offset) must be raw constants
  // read only by these ops, so rewriting them changes nothing else; and there must be recipe room.
  template <class Module, class Uses>
  static constexpr bool foldable(const Module& m, const Uses& uses, const node& producer, const node& bn) {
    if (!ops::has_weights(producer.kind) || producer.attrs.fused != activation::none || m.recipe_count + 2 > static_cast<std::int32_t>(Module::node_capacity))
      return false;
    const auto raw_and_private = [&](std::int32_t t) {
      return t >= 0 && m.tensor_at(t).role == tensor_role::constant && m.tensor_at(t).recipe < 0 &&
             uses[static_cast<std::size_t>(t)] == 1;
    };
    const std::int32_t bias = producer.inputs[2] >= 0 ? producer.inputs[2] : bn.inputs[2];
    for (std::int32_t k = 1; k < 5; ++k)
      if (m.tensor_at(bn.inputs[static_cast<std::size_t>(k)]).role != tensor_role::constant) return false;
    return raw_and_private(producer.inputs[1]) && raw_and_private(bias);
  }
};

}  // namespace ctnn::pass
