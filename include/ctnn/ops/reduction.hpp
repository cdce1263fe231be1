#pragma once
// What every reduction over axes shares (mean, ops/reduce.hpp): the axes in attrs.mean.reduce_axes (bit d:
// axis d), the reduced axes kept as extent 1 with attrs.keep_dims, and its parameters' printing.
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct reduction_base : op_defaults {
  // The input's shape without the reduced axes (or with them as 1); a mask naming an axis past the
  // input's rank is an invalid axis.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const std::uint32_t reduced_axes = n.attrs.mean.reduce_axes;
    shape out{};
    for (std::int32_t d = 0; d < in.rank; ++d) {
      if ((reduced_axes >> d & 1u) == 0) out.dims[static_cast<std::size_t>(out.rank++)] = in[d];
      else if (n.attrs.keep_dims) out.dims[static_cast<std::size_t>(out.rank++)] = 1;
    }
    if (reduced_axes >> in.rank != 0u)
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in,
              {.axis = static_cast<std::int64_t>(reduced_axes), .rank_actual = in.rank}});
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.mean = n.attrs.mean;
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  axes mask ", static_cast<std::int64_t>(a.mean.reduce_axes));
    w.put(a.keep_dims ? " keep_dims" : "");
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axes mask ", static_cast<std::int64_t>(p.mean.reduce_axes));
  }
};

}  // namespace ctnn::ops
