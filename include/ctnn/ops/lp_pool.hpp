#pragma once
// lp_pool: ONNX LpPool, float32: the window of max_pool and avg_pool (ops/window_pool.hpp), the p-norm
// (sum of |x|^p)^(1/p) over its in-bounds elements (padding adds zeros, so it counts for nothing), p an
// integer >= 1 held as attrs.coefficients.alpha(); computed in double and rounded once. The descriptor of
// op_kind::lp_pool (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/detail/math.hpp>
#include <ctnn/kernel/reference/window.hpp>
#include <ctnn/ops/window_pool.hpp>

namespace ctnn::ops {

struct lp_pool : window_pool<op_kind::lp_pool, false> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }
  static constexpr bool non_negative_result = true;

  // As every pool's, and p an integer >= 1.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const float p = n.attrs.coefficients.alpha();
    if (!(p >= 1.0f && p <= 1024.0f) || static_cast<float>(static_cast<std::int32_t>(p)) != p)
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
              {.axis = static_cast<std::int64_t>(p)}});
    return window_pool::infer(m, node_id);
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    window_pool::prepare(m, n, p);
    p.coefficients = n.attrs.coefficients;
  }

  // |v|^p by multiplication (p an integer), the sum and its p-th root in double.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    namespace math = ctnn::detail::math::either;
    const float* input = operands[0];
    const auto in = nhwc::of(p->in);
    const auto power = static_cast<std::int32_t>(p->coefficients.alpha());
    kernel::reference::for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t c, std::int64_t at) {
      double sum = 0.0;
      kernel::reference::for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t, std::int32_t) {
        const float v = input[((b * in.h + iy) * in.w + ix) * in.c + c];
        const double magnitude = v < 0 ? -static_cast<double>(v) : static_cast<double>(v);
        double term = magnitude;
        for (std::int32_t k = 1; k < power && term != 0.0; ++k) term *= magnitude;
        sum += v != v ? v : term;  // NaN stays
      });
      const bool plain = power == 1 || sum == 0.0 || sum != sum || sum > 1.7976931348623157e308;  // x, 0, NaN, inf
      const double norm = plain ? sum : power == 2 ? math::sqrt(sum) : math::exp(math::log(sum) / power);
      result[at] = static_cast<float>(norm);
    });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op& op) {
    window_pool::put_attributes(w, a, op);
    w.field(" p ", static_cast<std::int64_t>(a.coefficients.alpha()));
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    window_pool::put_params(w, p);
    w.field(" p ", static_cast<std::int64_t>(p.coefficients.alpha()));
  }
};

}  // namespace ctnn::ops
