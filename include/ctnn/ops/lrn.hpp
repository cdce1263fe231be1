#pragma once
// lrn: ONNX LRN (local response normalization across channels), float32, in ONNX's layout [N, C, D1, ...]:
// x / (bias + alpha / size * s)^beta, s the sum of x^2 over channels c - floor((size - 1) / 2) to
// c + ceil((size - 1) / 2) inside [0, C) (attrs.lrn()); computed in double and rounded once. The descriptor of
// op_kind::lrn (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/detail/math.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct lrn : op_defaults {
  static constexpr op_kind kind = op_kind::lrn;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  // Rank >= 3 (N, C and at least one spatial dim: ONNX's), size >= 1.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    if (in.rank < 3 || n.attrs.lrn().size < 1)
      m.fail({error_code::unsupported_rank, node_id, n.kind, {}, in, {.rank_expected = 4, .rank_actual = in.rank}});
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.set(n.attrs.lrn());
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node& n, const shape& out) {
    return out.elements() * n.attrs.lrn().size;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    namespace math = ctnn::detail::math::either;
    const float* input = operands[0];
    const std::int64_t batches = p->in[0], channels = p->in[1], inner = p->in.elements() / (batches * channels);
    const std::int64_t size = p->lrn().size, below = (size - 1) / 2, above = size - 1 - below;
    const double scale = static_cast<double>(p->lrn().alpha()) / static_cast<double>(size), beta = p->lrn().beta();
    const double bias = p->lrn().bias();
    for (std::int64_t b = 0; b < batches; ++b)
      for (std::int64_t c = 0; c < channels; ++c)
        for (std::int64_t i = 0; i < inner; ++i) {
          double sum = 0.0;
          for (std::int64_t k = c - below < 0 ? 0 : c - below; k <= c + above && k < channels; ++k) {
            const double v = input[(b * channels + k) * inner + i];
            sum += v * v;
          }
          const double base = bias + scale * sum, x = input[(b * channels + c) * inner + i];
          // base^beta as e^(beta ln base) (constexpr); base 0 or NaN, or x NaN: x / base^beta's own limits
          const double power = base > 0.0 && base < 1.7976931348623157e308 ? math::exp(beta * math::log(base)) : base;
          result[(b * channels + c) * inner + i] = static_cast<float>(x / power);
        }
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  size ", a.lrn().size);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  size ", p.lrn().size);
  }
};

}  // namespace ctnn::ops
