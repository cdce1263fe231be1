#pragma once
// Building blocks of the float32 SIMD kernels: the vector types of the compile-time architecture (xsimd's
// default_arch, chosen by -march), narrower tiers for channel tails, fused activations on vectors
// and the aligned arrays that hold weights packed at compile time.
// Empty when xsimd has no architecture (bare-metal builds use the reference kernels).
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/op_kind.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE
#include <xsimd/xsimd.hpp>

namespace ctnn::kernel::simd::detail {

// The widest vector of the target: 16 floats with AVX-512, 8 with AVX/AVX2, 4 with SSE/NEON.
using wide = xsimd::batch<float>;
inline constexpr int lanes = static_cast<int>(wide::size);
// Vector registers of the target (accumulator budget of the register-blocked kernels).
inline constexpr int vector_registers = lanes == 16 ? 32 : 16;

// One float behind the same interface as a batch: the last tier of a channel loop.
struct scalar_lane {
  float value;
  static constexpr std::size_t size = 1;
  static scalar_lane broadcast(float x) { return {x}; }
  static scalar_lane load_unaligned(const float* p) { return {*p}; }
  static scalar_lane load_aligned(const float* p) { return {*p}; }
  void store_unaligned(float* p) const { *p = value; }
  void store_aligned(float* p) const { *p = value; }
  friend scalar_lane operator+(scalar_lane a, scalar_lane b) { return {a.value + b.value}; }
  friend scalar_lane operator-(scalar_lane a, scalar_lane b) { return {a.value - b.value}; }
  friend scalar_lane operator*(scalar_lane a, scalar_lane b) { return {a.value * b.value}; }
  friend scalar_lane operator/(scalar_lane a, scalar_lane b) { return {a.value / b.value}; }
};

// x * y + z, and `x > y ? x : y` (max pool, relu) by compare and select: the reference's expression
// exactly (NaN and -0 included), and no max intrinsic (GCC 12 warns inside _mm512_max_ps).
// xsimd 8's AVX-512 fma is x * y + z (two roundings, two instructions; clang does not contract it):
// the 512-bit vectors call the fused instruction directly.
template <class V>
[[gnu::always_inline]] inline V fmadd(const V& x, const V& y, const V& z) {
  if constexpr (std::is_same_v<V, scalar_lane>) return {x.value * y.value + z.value};
#if XSIMD_WITH_AVX512F
  else if constexpr (sizeof(V) == 64) return V(_mm512_fmadd_ps(x, y, z));  // a 512-bit float vector
#endif
  else return xsimd::fma(x, y, z);
}
template <class V>
[[gnu::always_inline]] inline V greater_of(const V& x, const V& y) {
  if constexpr (std::is_same_v<V, scalar_lane>) return {x.value > y.value ? x.value : y.value};
  else return xsimd::select(x > y, x, y);
}

// Stores the first `count` (< lanes) floats of y: one masked store with AVX-512 (narrow outputs such as
// a 3-channel conv store every pixel this way), through a buffer otherwise.
[[gnu::always_inline]] inline void store_first(const wide& y, float* to, int count) {
#if XSIMD_WITH_AVX512F
  if constexpr (sizeof(wide) == 64) {
    _mm512_mask_storeu_ps(to, static_cast<__mmask16>((1u << count) - 1u), y);
    return;
  }
#endif
  alignas(64) float values[lanes];
  y.store_aligned(values);
  for (int c = 0; c < count; ++c) to[c] = values[c];
}

// The vector type of each width the target has (channel tails use the widest that fits).
template <std::size_t Width>
struct tier {
  using type = void;
};
template <>
struct tier<1> {
  using type = scalar_lane;
};
template <>
struct tier<lanes> {
  using type = wide;
};
#if XSIMD_WITH_AVX512F && XSIMD_WITH_AVX2
template <>
struct tier<8> {
#if XSIMD_WITH_FMA3_AVX2
  using type = xsimd::batch<float, xsimd::fma3<xsimd::avx2>>;
#else
  using type = xsimd::batch<float, xsimd::avx2>;
#endif
};
#endif
#if XSIMD_WITH_AVX && XSIMD_WITH_SSE4_2
template <>
struct tier<4> {
  using type = xsimd::batch<float, xsimd::sse4_2>;
};
#endif

// The next narrower width that has a vector type.
constexpr std::size_t narrower(std::size_t width) {
  if (width > 8 && !std::is_void_v<tier<8>::type>) return 8;
  if (width > 4 && !std::is_void_v<tier<4>::type>) return 4;
  return 1;
}

// Fused activations the vector kernels apply (sigmoid and tanh stay with the reference kernels).
constexpr bool vector_activation(activation a) {
  return a == activation::none || a == activation::relu || a == activation::relu6;
}

template <activation A, class V>
[[gnu::always_inline]] inline V activate(const V& x) {
  if constexpr (A == activation::relu) {
    return greater_of(x, V::broadcast(0.0f));  // x > 0 ? x : 0
  } else if constexpr (A == activation::relu6) {
    if constexpr (std::is_same_v<V, scalar_lane>) {
      return {x.value < 0.0f ? 0.0f : (x.value > 6.0f ? 6.0f : x.value)};
    } else {
      const V zero = V::broadcast(0.0f), six = V::broadcast(6.0f);
      return xsimd::select(x < zero, zero, xsimd::select(x > six, six, x));
    }
  } else {
    static_assert(A == activation::none, "ctnn: the SIMD kernels fuse relu and relu6 only (kernel/simd/f32.hpp).");
    return x;
  }
}

// Covers channels [0, Count) with vectors: f(V{}, c) for each chunk starting at c, widest tier first,
// narrower tiers (down to one float) for the tail.
template <int Count, std::size_t Width = lanes, class F>
[[gnu::always_inline]] inline void for_each_channel_chunk(F&& f, int first = 0) {
  using V = typename tier<Width>::type;
  constexpr int width = static_cast<int>(Width);
  constexpr int full = Count / width * width;
  for (int c = 0; c < full; c += width) f(V{}, first + c);
  if constexpr (Count % width != 0) for_each_channel_chunk<Count % width, narrower(Width)>(f, first + full);
}

// Constants packed at compile time for a kernel (kernel::pack_operand): aligned for full-vector loads.
template <std::size_t N>
struct alignas(64) packed_floats {
  float values[N > 0 ? N : 1];
  constexpr const float* data() const { return values; }
};

}  // namespace ctnn::kernel::simd::detail

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
