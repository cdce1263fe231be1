#pragma once
// hardmax: 1 at the first largest element of each vector along attrs.axis of its float32 input and 0
// elsewhere, shaped as the input (ONNX Hardmax, opset 13: numpy's argmax, so a NaN is the largest and the
// first one wins). The descriptor of op_kind::hardmax (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct hardmax : prints_axis<op_defaults> {
  static constexpr op_kind kind = op_kind::hardmax;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    if (n.attrs.axis < 0 || n.attrs.axis >= in.rank)
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = n.attrs.axis, .rank_actual = in.rank}});
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.axis = n.attrs.axis;
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // comparisons only
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    const float* input = operands[0];
    const std::int32_t axis = p->axis;
    const std::int64_t dim = p->in[axis];
    std::int64_t outer = 1, inner = 1;
    for (std::int32_t d = 0; d < axis; ++d) outer *= p->in[d];
    for (std::int32_t d = axis + 1; d < p->in.rank; ++d) inner *= p->in[d];
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        const float* row = input + o * dim * inner + i;
        float* out = result + o * dim * inner + i;
        std::int64_t best = 0;
        for (std::int64_t e = 1; e < dim; ++e) {
          const float b = row[best * inner], x = row[e * inner];
          if (b == b && (x > b || x != x)) best = e;  // a NaN stays the best once it is
        }
        for (std::int64_t e = 0; e < dim; ++e) out[e * inner] = e == best ? 1.0f : 0.0f;
      }
  }
};

}  // namespace ctnn::ops
