#pragma once
// The walk the blocked GEMMs share (i8/gemm.hpp: int8; i8/gemm16.hpp: 16x8): a conv2d or dense layer over the
// padded input buffer (i8/padded_input.hpp) as output pixels x output channels. One output pixel reads `runs`
// contiguous stretches of the buffer at compile-time offsets from its first tap: one per kernel row (kernel_w
// taps side by side, dilation_w = 1) or one per tap, each cut into groups of `Group` inputs (one broadcast
// word). Blocks of `pixel_block` pixels x `vector_block` channel vectors run along one output row, or along
// every pixel when they are all evenly spaced in the buffer (dense layers, unpadded 1x1 stride-1 convs).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/simd/i8/padded_input.hpp>

namespace ctnn::kernel::simd::i8_detail {

template <kernel_params P, int Lanes, int Registers, int Group>
struct gemm_walk {
  using geometry = window_geometry<P>;
  static constexpr bool is_dense = geometry::is_dense;
  static constexpr std::int32_t in_c = geometry::channels, out_c = P.out.last();
  static constexpr std::int32_t kernel_h = geometry::kernel_h, kernel_w = geometry::kernel_w;
  static constexpr std::int32_t reduction = kernel_h * kernel_w * in_c;
  static constexpr bool row_runs = geometry::win.dilation_w == 1;
  static constexpr std::int32_t runs = row_runs ? kernel_h : kernel_h * kernel_w;
  static constexpr std::int32_t run_elements = row_runs ? kernel_w * in_c : in_c;
  static constexpr std::int32_t groups_per_run = (run_elements + Group - 1) / Group;
  static constexpr std::int32_t channel_vectors = (out_c + Lanes - 1) / Lanes;
  static constexpr std::size_t weight_words = static_cast<std::size_t>(runs) * groups_per_run * channel_vectors * Lanes;
  static constexpr bool flat = is_dense || (kernel_h == 1 && kernel_w == 1 && geometry::win.stride_h == 1 &&
                                            geometry::win.stride_w == 1 && !geometry::padded);
  static constexpr std::int32_t pixels = geometry::batch * geometry::out_h * geometry::out_w;
  static constexpr std::int32_t row_count = flat ? 1 : geometry::batch * geometry::out_h;
  static constexpr std::int32_t row_pixels = flat ? pixels : geometry::out_w;
  static constexpr std::ptrdiff_t pixel_step = flat ? in_c : static_cast<std::ptrdiff_t>(geometry::win.stride_w) * in_c;
  static constexpr std::int32_t vector_block = block_divisor(channel_vectors);
  static constexpr std::int32_t pixel_block = gemm_pixel_block(Registers, vector_block, row_pixels);

  // Element offset, from a pixel's first tap, of run `run`.
  static constexpr std::ptrdiff_t run_offset(std::int32_t run) {
    return row_runs ? geometry::tap_offset(run, 0) : geometry::tap_offset(run / kernel_w, run % kernel_w);
  }
  // The first input element of output row `row` (one row of the walk: all pixels when flat).
  template <class Element>
  static constexpr const Element* row_input(const Element* padded, std::int32_t row) {
    return padded + (flat ? 0 : geometry::pixel_offset(row / geometry::out_h, row % geometry::out_h, 0));
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
