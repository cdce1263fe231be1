#pragma once
// lower_te: replaces each graph op by a call of a kernel with compile-time parameters (kernel_params).
// Graph nodes stay in the module next to the calls, so later passes see both levels.
#include <array>
#include <bit>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>

namespace ctnn::pass {

namespace detail {

// A cheap fingerprint of kernel params, so that finding structurally equal kernels compares full params
// only on a fingerprint match (keeps lower_te O(calls x kernels) in cheap steps; DESIGN §2).
constexpr std::uint32_t fingerprint(const kernel_params& p) {
  std::uint32_t h = 2166136261u;
  const auto mix = [&h](std::int64_t v) { h = (h ^ static_cast<std::uint32_t>(v)) * 16777619u; };
  mix(static_cast<std::int64_t>(p.kind));
  mix(static_cast<std::int64_t>(p.fused));
  for (std::int32_t d = 0; d < p.in.rank; ++d) mix(p.in[d]);
  for (std::int32_t d = 0; d < p.out.rank; ++d) mix(p.out[d]);
  mix(p.win.kernel_h * 131 + p.win.stride_h * 17 + p.win.pad_top);
  mix(p.win.kernel_w * 131 + p.win.stride_w * 17 + p.win.pad_left);
  return h;
}

template <class Module>
constexpr kernel_params kernel_params_of(const Module& m, const node& n) {
  kernel_params p{};
  p.kind = n.kind;
  p.type = m.tensor_at(n.inputs[0]).type;
  p.fused = n.attrs.fused;
  p.in = m.tensor_at(n.inputs[0]).dims;
  p.out = m.tensor_at(n.output).dims;
  switch (n.kind) {
    case op_kind::conv2d:
    case op_kind::depthwise_conv2d:
    case op_kind::max_pool:
    case op_kind::avg_pool:
      p.win = n.attrs.win;
      p.groups = n.attrs.groups;
      p.depth_multiplier = n.attrs.depth_multiplier;
      p.has_bias = n.input_count > 2 && n.inputs[2] >= 0;
      break;
    case op_kind::dense:
      p.has_bias = n.input_count > 2 && n.inputs[2] >= 0;
      break;
    case op_kind::add:
    case op_kind::mul:
      p.in2 = m.tensor_at(n.inputs[1]).dims;
      break;
    case op_kind::softmax:
      p.axis = n.attrs.axis;
      break;
    case op_kind::concat:
      p.axis = n.attrs.axis;
      p.concat_count = n.input_count;
      for (std::int32_t i = 0; i < n.input_count; ++i)
        p.concat_extents[static_cast<std::size_t>(i)] = m.tensor_at(n.inputs[static_cast<std::size_t>(i)]).dims[n.attrs.axis];
      break;
    case op_kind::pad:
      p.pads = n.attrs.pads;
      p.pad_value_bits = std::bit_cast<std::uint32_t>(n.attrs.pad_value);
      break;
    case op_kind::mean:
      p.axis = static_cast<std::int32_t>(n.attrs.reduce_axes);  // the kernel reads the reduced axes as a bit mask
      break;
    case op_kind::quantize:
    case op_kind::dequantize:
      break;
    case op_kind::batch_norm:
      p.pad_value_bits = std::bit_cast<std::uint32_t>(n.attrs.epsilon);  // the kernel's one float parameter
      break;
    case op_kind::global_avg_pool:
    case op_kind::relu:
    case op_kind::relu6:
    case op_kind::sigmoid:
    case op_kind::tanh:
    case op_kind::reshape:
      break;
  }
  return p;
}

}  // namespace detail

struct lower_te {
  static constexpr fact requires_facts = fact::shapes_inferred;
  static constexpr fact establishes = fact::kernels_lowered;

  template <class Module>
  static constexpr Module run(Module m) {
    std::array<std::uint32_t, Module::node_capacity> fingerprints{};
    m.call_count = 0;
    m.kernel_count = 0;
    for (std::int32_t i = 0; i < m.node_count; ++i) {
      const node& n = m.node_at(i);
      if (!kernel::has_kernel(n.kind, m.tensor_at(n.inputs[0]).type)) {
        m.fail({error_code::unsupported_dtype, i, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
                static_cast<std::int64_t>(m.tensor_at(n.inputs[0]).type), 0});
        return m;
      }
      kernel_call& c = m.calls[static_cast<std::size_t>(m.call_count++)];
      c = kernel_call{};
      c.node = i;
      c.params = detail::kernel_params_of(m, n);
      const std::uint32_t print = detail::fingerprint(c.params);
      for (std::int32_t k = 0; k < m.kernel_count && c.kernel < 0; ++k)
        if (fingerprints[static_cast<std::size_t>(k)] == print && m.kernels[static_cast<std::size_t>(k)] == c.params) c.kernel = k;
      if (c.kernel < 0) {
        c.kernel = m.kernel_count++;
        m.kernels[static_cast<std::size_t>(c.kernel)] = c.params;
        fingerprints[static_cast<std::size_t>(c.kernel)] = print;
      }
      c.operands = n.inputs;
      c.operand_count = n.input_count;
      c.result = n.output;
    }
    m.establish(fact::kernels_lowered);
    return m;
  }
};

}  // namespace ctnn::pass
