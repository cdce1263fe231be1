#pragma once
// fuse_ops: merges ops into their producer's kernel where the result is provably unchanged:
//  * an activation op (relu, relu6, sigmoid, tanh) into the conv/depthwise/dense/add/mul before it;
//  * a constant per-channel add into the conv/depthwise/dense before it, as its bias;
//  * an explicit zero pad of H/W into the conv/depthwise after it, and into a max pool after it when the
//    padded values are provably >= 0 (produced by relu/relu6) and every window keeps an input element.
//    Never into average pooling, which divides by the in-bounds count.
// Each fusion needs the intermediate to have exactly one reader and not to be a model output.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

namespace detail {

constexpr bool takes_fused_activation(op_kind k) {
  return ops::facts(k).takes_fused_activation;
}

// The activation an op is, if fuse_ops may fold it into its producer (its descriptor's fuses_as).
constexpr activation activation_of(op_kind k) {
  return ops::facts(k).fuses_as;
}

// A quantized op fuses only a clamp (relu/relu6), and only when the activation keeps the quantization
// of its input: then the fused clamp and TFLite's separate (requantizing) op give the same bytes.
template <class Module>
constexpr bool fusable_activation(const Module& m, activation act, const node& producer, const node& op) {
  const tensor& before = m.tensor_at(producer.output);
  const tensor& after = m.tensor_at(op.output);
  if (before.type == dtype::f32 && after.type == dtype::f32) return true;
  return (act == activation::relu || act == activation::relu6) && before.type == after.type &&
         before.quant.scale == after.quant.scale && before.quant.zero_point == after.quant.zero_point;
}

// Whether a tensor's values are >= 0 by construction (the result of relu/relu6, fused or not).
template <class Module>
constexpr bool non_negative(const Module& m, std::int32_t tensor_id) {
  const std::int32_t p = m.tensor_at(tensor_id).producer;
  if (p < 0) return false;
  const node& n = m.node_at(p);
  return ops::facts(n.kind).non_negative_result || n.attrs.fused == activation::relu ||
         n.attrs.fused == activation::relu6;
}

// A pad op that only pads H and W of an NHWC tensor with zeros.
template <class Module>
constexpr bool spatial_zero_pad(const Module& m, const node& pad) {
  const shape& in = m.tensor_at(pad.inputs[0]).dims;
  const auto& p = pad.attrs.pad.before_after;
  return pad.attrs.pad.mode == pad_mode::constant && pad.attrs.pad.fill_value() == 0.0f && in.rank == 4 && p[0] == 0 && p[1] == 0 && p[6] == 0 && p[7] == 0;
}

}  // namespace detail

struct fuse_ops : detail::op_rewriting_pass<fuse_ops> {
  template <class Module, class Uses, class Flags>
  static constexpr void rewrite(Module& m, const Uses& uses, std::int32_t i, Flags& erased) {
    node& consumer = m.node_at(i);
    const std::int32_t source = detail::sole_producer(m, uses, consumer.inputs[0]);
    if (source < 0) return;
    node& producer = m.node_at(source);
    if (const activation act = detail::activation_of(consumer.kind);
        act != activation::none && detail::takes_fused_activation(producer.kind) &&
        producer.attrs.fused == activation::none && detail::fusable_activation(m, act, producer, consumer)) {
      producer.attrs.fused = act;
      detail::redirect_output(m, source, consumer.output);
      erased[static_cast<std::size_t>(i)] = true;
    } else if (consumer.kind == op_kind::add && ops::has_weights(producer.kind) && producer.inputs[2] < 0 &&
               producer.attrs.fused == activation::none && fuse_bias(m, uses, producer, consumer)) {
      producer.attrs.fused = consumer.attrs.fused;
      detail::redirect_output(m, source, consumer.output);
      erased[static_cast<std::size_t>(i)] = true;
    } else if (producer.kind == op_kind::pad && detail::spatial_zero_pad(m, producer) && fuse_pad(m, producer, consumer)) {
      consumer.inputs[0] = producer.inputs[0];
      erased[static_cast<std::size_t>(source)] = true;
    }
  }

 private:
  // add(conv_result, bias) with a constant bias of one value per output channel, read only here.
  template <class Module, class Uses>
  static constexpr bool fuse_bias(Module& m, const Uses& uses, node& producer, const node& add) {
    const std::int32_t bias = add.inputs[1];
    const tensor& b = m.tensor_at(bias);
    if (b.type != dtype::f32 || m.tensor_at(add.output).type != dtype::f32) return false;  // int8 adds rescale
    const std::int32_t channels = m.tensor_at(producer.output).dims.last();
    if (b.role != tensor_role::constant || uses[static_cast<std::size_t>(bias)] != 1 || b.dims.elements() != channels ||
        b.dims.last() != channels || m.tensor_at(add.output).dims != m.tensor_at(producer.output).dims)
      return false;
    producer.inputs[2] = bias;  // its shape stays: kernels index a bias by channel, and a folded one keeps its recipe's
    producer.input_count = producer.input_count < 3 ? 3 : producer.input_count;
    return true;
  }

  // Folds the pad's H/W amounts into the window of the conv or max pool that reads it.
  template <class Module>
  static constexpr bool fuse_pad(Module& m, const node& pad, node& consumer) {
    const bool conv = consumer.kind == op_kind::conv2d || consumer.kind == op_kind::depthwise_conv2d;
    if (!conv && !(consumer.kind == op_kind::max_pool && detail::non_negative(m, pad.inputs[0]))) return false;
    window w = consumer.attrs.win;
    w.mode = padding::explicit_pads;
    w.pad_top += pad.attrs.pad.before_after[2];
    w.pad_bottom += pad.attrs.pad.before_after[3];
    w.pad_left += pad.attrs.pad.before_after[4];
    w.pad_right += pad.attrs.pad.before_after[5];
    if (!conv) {
      // Zero padding changes no max of values >= 0, as long as each window still holds an input element.
      const shape& in = m.tensor_at(pad.inputs[0]).dims;
      const shape& out = m.tensor_at(consumer.output).dims;
      if (shape_rules::first_window_in_padding(in[1], out[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top) >= 0 ||
          shape_rules::first_window_in_padding(in[2], out[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left) >= 0)
        return false;
    }
    consumer.attrs.win = w;
    return true;
  }
};

}  // namespace ctnn::pass
