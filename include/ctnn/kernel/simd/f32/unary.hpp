#pragma once
// float32 functions of one operand, vectorised: hard_swish and hard_sigmoid (MobileNetV3), leaky_relu, the exactly
// rounded math (abs, neg, square, reciprocal, sqrt, rsqrt: a decomposed LayerNormalization's square root), sigmoid,
// tanh and elu (EfficientNet's x * sigmoid(x), LSTMs) and unary_function's erf, gelu and gelu_tanh (transformer
// blocks), softplus, selu and celu. The first do the reference's float arithmetic in its order (IEEE division and
// square root): identical results. sigmoid's e^-x and tanh come from double lanes rounded once to float (the
// reference's <cmath> expf and tanhf: within 0.502 and about 2 ulp of the exact value), elu's alpha * expm1 too
// (the reference's float alpha * expm1f). The reference computes erf, gelu, softplus, selu and celu in double and
// rounds once to float (kernel/reference/unary_function.hpp); so do these, with xsimd's double erf / tanh in place
// of <cmath>'s (both within an ulp or two of double, far below the float rounding: the results differ from the
// reference's only where the double value lies within those ulps of a float rounding boundary). The last elements,
// fewer than a vector, go through the same vector code from a padded buffer (for_each_block): an element's value
// depends on its value alone, never on its position in the tensor or on the buffers' offsets (the plan).
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::detail {

// The unary_function functions computed here.
constexpr bool vector_math_function(math_function f) {
  return f == math_function::erf || f == math_function::gelu || f == math_function::gelu_tanh ||
         f == math_function::softplus || f == math_function::selu || f == math_function::celu;
}

constexpr bool unary_activation_kind(const kernel_params& p) {
  switch (p.kind) {
    case op_kind::hard_swish:
    case op_kind::hard_sigmoid:
    case op_kind::leaky_relu:
    case op_kind::abs:
    case op_kind::neg:
    case op_kind::square:
    case op_kind::reciprocal:
    case op_kind::sqrt:
    case op_kind::rsqrt: return true;
    case op_kind::sigmoid:
    case op_kind::tanh:
    case op_kind::elu: return p.type == dtype::f32;  // int8 / int16: their tables
    case op_kind::unary_function: return vector_math_function(p.coefficients.function);
    default: return false;
  }
}

// The double vectors the functions run on: 256-bit ones with AVX-512 too (xsimd's 512-bit exp and ldexp
// pass _mm512_undefined_* sources, which GCC 12 reports as uninitialised under -Werror).
#if XSIMD_WITH_AVX512F && XSIMD_WITH_FMA3_AVX2
using double_vector = xsimd::batch<double, xsimd::fma3<xsimd::avx2>>;
#elif XSIMD_WITH_AVX512F && XSIMD_WITH_AVX2
using double_vector = xsimd::batch<double, xsimd::avx2>;
#else
using double_vector = xsimd::batch<double>;
#endif

// The square root of each lane (IEEE: exactly rounded). 512-bit vectors call the zero-masked instruction
// (GCC 12 warns inside _mm512_sqrt_ps, whose merge source is undefined).
template <class V>
[[gnu::always_inline]] inline V square_root(const V& x) {
#if XSIMD_WITH_AVX512F
  if constexpr (sizeof(V) == 64) return V(_mm512_maskz_sqrt_ps(static_cast<__mmask16>(0xFFFF), x));
  else
#endif
    return xsimd::sqrt(x);
}

// xsimd's double exp, expm1, tanh and erf convert each lane's power of two to an integer whatever the lane
// holds (AVX2 has no double -> int64 instruction: lane by lane, undefined for an infinity, a NaN or a value
// beyond int64) and select 0, inf, -1 or ±1 afterwards. Their arguments are limited first to a range beyond
// which the double result no longer changes: e^x is 0 below -745 and inf above 710, tanh(x) = 1 - 2 / (1 + e^2x)
// is ±1 beyond ±355, erf(x) = 1 - e^-x² erfc3(x) is ±1 beyond ±27 (e^-729 is 0). A NaN becomes the lower
// bound here; in_double_lanes gives NaN back for it.
[[gnu::always_inline]] inline double_vector limited(const double_vector& x, double lowest, double highest) {
  const double_vector low(lowest), high(highest);
  return xsimd::select(x > high, high, xsimd::select(x >= low, x, low));
}
[[gnu::always_inline]] inline double_vector exp_of(const double_vector& x) {
  return xsimd::exp(limited(x, -745.0, 710.0));
}
// expm1(±0) is ±0 (xsimd's gives +0 for -0; selu's and celu's -0 keeps its sign as in the reference).
[[gnu::always_inline]] inline double_vector expm1_of(const double_vector& x) {
  return xsimd::select(x == double_vector(0.0), x, xsimd::expm1(limited(x, -745.0, 710.0)));
}
[[gnu::always_inline]] inline double_vector tanh_of(const double_vector& x) {
  return xsimd::tanh(limited(x, -355.0, 355.0));
}
[[gnu::always_inline]] inline double_vector erf_of(const double_vector& x) {
  return xsimd::erf(limited(x, -27.0, 27.0));
}

// f of each double (unary_function::evaluate's formulas, both branches of a choice computed and one selected).
template <math_function F>
[[gnu::always_inline]] inline double_vector evaluate_in_double(const double_vector& x, const activation_coefficients& c) {
  using D = double_vector;
  constexpr double sqrt_half = 0.707106781186547524400844362104849039;
  constexpr double sqrt_two_over_pi = 0.797884560802865355879892119868763737;
  const D zero(0.0), one(1.0);
  if constexpr (F == math_function::erf) {
    return erf_of(x);
  } else if constexpr (F == math_function::gelu) {
    return D(0.5) * x * (one + erf_of(x * D(sqrt_half)));
  } else if constexpr (F == math_function::gelu_tanh) {
    return D(0.5) * x * (one + tanh_of(D(sqrt_two_over_pi) * (x + D(0.044715) * x * x * x)));
  } else if constexpr (F == math_function::softplus) {
    return xsimd::select(x > zero, x + xsimd::log(one + exp_of(-x)), xsimd::log(one + exp_of(x)));
  } else if constexpr (F == math_function::selu) {
    const D alpha(static_cast<double>(c.alpha())), gamma(static_cast<double>(c.gamma()));
    return gamma * xsimd::select(x > zero, x, alpha * expm1_of(x));
  } else {
    static_assert(F == math_function::celu);
    const D alpha(static_cast<double>(c.alpha()));
    return xsimd::select(x > zero, x, alpha * expm1_of(x / alpha));
  }
}

// block(from, to) on every Step floats of in[0, Elements) -> out[0, Elements); the last ones (fewer than
// Step) go through a zero-padded stack buffer into the same block, so that every element is computed by
// the same vector code: its value does not depend on its position (vector body or tail) nor on the
// buffers' offsets. in may be out.
template <long Elements, long Step, class Block>
[[gnu::always_inline]] inline void for_each_block(const float* in, float* out, Block&& block) {
  constexpr long full = Elements / Step * Step;
  for (long i = 0; i < full; i += Step) block(in + i, out + i);
  if constexpr (full < Elements) {
    constexpr long rest = Elements - full;
    alignas(64) float from[Step] = {};
    alignas(64) float to[Step];
    for (long k = 0; k < rest; ++k) from[k] = in[full + k];
    block(static_cast<const float*>(from), static_cast<float*>(to));
    for (long k = 0; k < rest; ++k) out[full + k] = to[k];
  }
}

// g of each of the Step = double_vector::size floats from[k] (widened to double; g maps a double_vector),
// rounded once to float into to[k]; a NaN stays NaN (as in the reference, whatever g makes of it).
template <class G>
[[gnu::always_inline]] inline void in_double_lanes(const float* from, float* to, G&& g) {
  constexpr long step = static_cast<long>(double_vector::size);
  alignas(64) double values[step];
  for (long k = 0; k < step; ++k) values[k] = static_cast<double>(from[k]);
  const double_vector x = double_vector::load_aligned(values);
  xsimd::select(xsimd::isnan(x), x, g(x)).store_aligned(values);  // not x != x: AVX's compare is ordered
  for (long k = 0; k < step; ++k) to[k] = static_cast<float>(values[k]);
}

}  // namespace ctnn::kernel::simd::detail

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct unary_activation : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = P.type == dtype::f32 && detail::unary_activation_kind(P);

  // abs, neg (the sign bit), square, reciprocal, sqrt, rsqrt (kernel/reference/unary_math.hpp).
  template <class V>
  [[gnu::always_inline]] static V exact_math(const V& x) {
    if constexpr (P.kind == op_kind::abs) return xsimd::abs(x);  // the sign bit cleared
    else if constexpr (P.kind == op_kind::neg) return -x;      // the sign bit flipped
    else if constexpr (P.kind == op_kind::square) return x * x;
    else if constexpr (P.kind == op_kind::reciprocal) return V::broadcast(1.0f) / x;
    else if constexpr (P.kind == op_kind::sqrt) return detail::square_root(x);
    else return V::broadcast(1.0f) / detail::square_root(x);
  }

  static void run(const float* const* operands, float* result) {
    using detail::wide;
    const float* in = operands[0];
    constexpr long elements = P.out.elements();
    const float alpha = P.coefficients.alpha(), beta = P.coefficients.beta();
    if constexpr (P.kind == op_kind::sigmoid || P.kind == op_kind::tanh || P.kind == op_kind::elu || P.kind == op_kind::unary_function) {
      constexpr long step = static_cast<long>(detail::double_vector::size);
      detail::for_each_block<elements, step>(in, result, [](const float* from, float* to) __attribute__((always_inline)) {
        detail::in_double_lanes(from, to, [](const detail::double_vector& x) __attribute__((always_inline)) {
          if constexpr (P.kind == op_kind::sigmoid) return detail::exp_of(-x);  // e^-x, then 1 / (1 + e^-x) in float
          else if constexpr (P.kind == op_kind::tanh) return detail::tanh_of(x);
          else if constexpr (P.kind == op_kind::elu)  // alpha (e^x - 1) below 0
            return xsimd::select(x < detail::double_vector(0.0), detail::double_vector(static_cast<double>(P.coefficients.alpha())) * detail::expm1_of(x), x);
          else return detail::evaluate_in_double<P.coefficients.function>(x, P.coefficients);
        });
        if constexpr (P.kind == op_kind::sigmoid)
          for (long k = 0; k < step; ++k) to[k] = 1.0f / (1.0f + to[k]);
      });
    } else {
      detail::for_each_block<elements, detail::lanes>(in, result, [&](const float* from, float* to) __attribute__((always_inline)) {
        const wide x = wide::load_unaligned(from);
        const wide zero = wide::broadcast(0.0f);
        if constexpr (P.kind == op_kind::hard_swish) {
          // x * relu6(x + 3) / 6 (reference::hard_swish)
          const wide raised = x + wide::broadcast(3.0f), six = wide::broadcast(6.0f);
          const wide clamped = xsimd::select(raised > six, six, xsimd::select(raised < zero, zero, raised));
          (x * clamped / six).store_unaligned(to);
        } else if constexpr (P.kind == op_kind::hard_sigmoid) {
          const wide y = wide::broadcast(alpha) * x + wide::broadcast(beta), one = wide::broadcast(1.0f);
          xsimd::select(y > one, one, xsimd::select(y < zero, zero, y)).store_unaligned(to);
        } else if constexpr (P.kind == op_kind::leaky_relu) {
          xsimd::select(x > zero, x, x * wide::broadcast(alpha)).store_unaligned(to);
        } else {
          exact_math(x).store_unaligned(to);
        }
      });
    }
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
