#pragma once
// float32 pooling, NHWC, vectorised over channels. Same arithmetic in the same order as the reference
// kernels (max; in-bounds sum divided by the in-bounds count), so the results are identical.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>
#include <ctnn/kernel/simd/detail/f32_window.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct pool2d : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports =
      (P.kind == op_kind::max_pool || P.kind == op_kind::avg_pool) && P.type == dtype::f32 && P.in.rank == 4 && P.out.rank == 4;

  static constexpr nhwc in = nhwc::of(P.in);
  static constexpr nhwc out = nhwc::of(P.out);

  static void run(const float* const* operands, float* result) {
    const float* input = operands[0];
    for (int b = 0; b < out.n; ++b)
      for (int oy = 0; oy < out.h; ++oy)
        for (int ox = 0; ox < out.w; ++ox) {
          float* to = result + ((static_cast<long>(b) * out.h + oy) * out.w + ox) * out.c;
          detail::for_each_channel_chunk<in.c>([&](auto lanes, int c) __attribute__((always_inline)) {
            using V = decltype(lanes);
            V acc = V::broadcast(P.kind == op_kind::max_pool ? -3.402823466e38f : 0.0f);
            int count = 0;
            detail::for_each_inside_tap<P>(oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t, std::int32_t) __attribute__((always_inline)) {
              const V v = V::load_unaligned(input + ((static_cast<long>(b) * in.h + iy) * in.w + ix) * in.c + c);
              if constexpr (P.kind == op_kind::max_pool) acc = detail::greater_of(v, acc);
              else acc = acc + v;
              ++count;
            });
            if constexpr (P.kind == op_kind::avg_pool) acc = acc / V::broadcast(static_cast<float>(count));
            acc.store_unaligned(to + c);
          });
        }
  }
};

template <kernel_params P>
struct global_avg_pool : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = P.kind == op_kind::global_avg_pool && P.type == dtype::f32 && P.in.rank == 4;

  static constexpr nhwc in = nhwc::of(P.in);

  static void run(const float* const* operands, float* result) {
    constexpr long pixels = static_cast<long>(in.h) * in.w;
    for (int b = 0; b < in.n; ++b) {
      const float* image = operands[0] + b * pixels * in.c;
      detail::for_each_channel_chunk<in.c>([&](auto lanes, int c) __attribute__((always_inline)) {
        using V = decltype(lanes);
        V acc = V::broadcast(0.0f);
        for (long p = 0; p < pixels; ++p) acc = acc + V::load_unaligned(image + p * in.c + c);
        (acc / V::broadcast(static_cast<float>(pixels))).store_unaligned(result + b * in.c + c);
      });
    }
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
