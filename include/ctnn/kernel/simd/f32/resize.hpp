#pragma once
// float32 resizes of NHWC images along H and W (TFLite RESIZE_NEAREST_NEIGHBOR / RESIZE_BILINEAR, ONNX Resize
// nearest over those axes): the source rows and columns of every result row and column are computed at compile
// time by the reference's index arithmetic (kernel/reference/resize.hpp), and each result pixel is its
// channels, vectorised. Nearest copies the source pixel (identical results); bilinear (TFLite's coordinates)
// sums its four neighbours times their weights by fused multiply-adds (within rounding of the reference).
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/reference/resize.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::detail {

// Resized along H and/or W of a rank-4 NHWC float32 image (batch and channels copied).
constexpr bool resizes_image(const kernel_params& p) {
  return p.type == dtype::f32 && p.in.rank == 4 && p.out.rank == 4 && (p.resize().resized_axes & ~0b0110u) == 0 &&
         p.in[0] == p.out[0] && p.in[3] == p.out[3];
}

}  // namespace ctnn::kernel::simd::detail

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct resize_nearest : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = P.kind == op_kind::resize_nearest && detail::resizes_image(P);

 private:
  static constexpr nhwc in = nhwc::of(P.in);
  static constexpr nhwc out = nhwc::of(P.out);
  // Per result index of axis d (1: rows, 2: columns): the source's offset in floats, or -1 outside the input.
  template <int D, int Extent, long Stride>
  static constexpr std::array<long, static_cast<std::size_t>(Extent)> sources = [] {
    std::array<long, static_cast<std::size_t>(Extent)> offsets{};
    const resize_fields r = P.resize();
    for (int x = 0; x < Extent; ++x) {
      const auto s = kernel::reference::resize_detail::nearest_source(r, D, x, P.in[D], P.out[D]);
      offsets[static_cast<std::size_t>(x)] = s.outside ? -1 : static_cast<long>(s.at) * Stride;
    }
    return offsets;
  }();
  static constexpr auto row_sources = sources<1, out.h, static_cast<long>(in.w) * in.c>;
  static constexpr auto column_sources = sources<2, out.w, static_cast<long>(in.c)>;

 public:
  static void run(const float* const* operands, float* result) {
    const float extrapolated = P.resize().extrapolation_value();
    for (long b = 0; b < out.n; ++b) {
      const float* image = operands[0] + b * in.h * in.w * in.c;
      for (std::size_t y = 0; y < row_sources.size(); ++y)
        for (std::size_t x = 0; x < column_sources.size(); ++x, result += out.c) {
          const bool outside = row_sources[y] < 0 || column_sources[x] < 0;
          const float* from = outside ? image : image + row_sources[y] + column_sources[x];
          simd::detail::for_each_channel_chunk<out.c>([&](auto lanes, int c) __attribute__((always_inline)) {
            using V = decltype(lanes);
            (outside ? V::broadcast(extrapolated) : V::load_unaligned(from + c)).store_unaligned(result + c);
          });
        }
    }
  }
};

template <kernel_params P>
struct resize_bilinear : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports =
      P.kind == op_kind::resize_linear && P.resize().coordinates == resize_coordinates::tflite && detail::resizes_image(P);

 private:
  static constexpr nhwc in = nhwc::of(P.in);
  static constexpr nhwc out = nhwc::of(P.out);
  // Per result index of an axis: the offsets (floats) of the neighbours below and above, and the fraction.
  struct axis_source {
    long low, high;
    float fraction;
  };
  template <int Extent>
  static constexpr std::array<axis_source, static_cast<std::size_t>(Extent)> sources(std::int32_t in_extent, long stride) {
    namespace rd = kernel::reference::resize_detail;
    std::array<axis_source, static_cast<std::size_t>(Extent)> s{};
    const resize_fields r = P.resize();
    const float scale = rd::tflite_scale(r, in_extent, Extent);
    for (int x = 0; x < Extent; ++x) {
      const rd::linear_coordinate c = rd::tflite_linear_source(r, x, scale, in_extent);
      s[static_cast<std::size_t>(x)] = {static_cast<long>(c.low) * stride, static_cast<long>(c.high) * stride,
                                        c.at - static_cast<float>(c.low)};
    }
    return s;
  }
  static constexpr auto row_sources = sources<out.h>(in.h, static_cast<long>(in.w) * in.c);
  static constexpr auto column_sources = sources<out.w>(in.w, in.c);

 public:
  static void run(const float* const* operands, float* result) {
    for (long b = 0; b < out.n; ++b) {
      const float* image = operands[0] + b * in.h * in.w * in.c;
      for (const axis_source& sy : row_sources)
        for (const axis_source& sx : column_sources) {
          const float dy = sy.fraction, dx = sx.fraction;
          // The neighbours' weights as products (the reference scales each neighbour by one fraction, then
          // the other: a rounding apart).
          const float w_low_low = (1 - dy) * (1 - dx), w_high_low = dy * (1 - dx), w_low_high = (1 - dy) * dx,
                      w_high_high = dy * dx;
          const float* low_low = image + sy.low + sx.low;
          const float* high_low = image + sy.high + sx.low;
          const float* low_high = image + sy.low + sx.high;
          const float* high_high = image + sy.high + sx.high;
          simd::detail::for_each_channel_chunk<out.c>([&](auto lanes, int c) __attribute__((always_inline)) {
            using V = decltype(lanes);
            V sum = V::load_unaligned(low_low + c) * V::broadcast(w_low_low);
            sum = simd::detail::fmadd(V::load_unaligned(high_low + c), V::broadcast(w_high_low), sum);
            sum = simd::detail::fmadd(V::load_unaligned(low_high + c), V::broadcast(w_low_high), sum);
            sum = simd::detail::fmadd(V::load_unaligned(high_high + c), V::broadcast(w_high_high), sum);
            (sum + V::broadcast(0.0f)).store_unaligned(result + c);  // as the reference: a sum of -0 is +0
          });
          result += out.c;
        }
    }
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
