#pragma once
// ONNX's integer average pools (kernel_params::requantization == onnx; int8 or uint8, NHWC, the type kept),
// vectorised over channels, bit-exact with kernel::reference::onnx_quant:
//   global_avg_pool (QLinearGlobalAveragePool, onnx_quant::global_average_pool): int32 sums of each channel
//     over the pixels, a block of 4 vectors of channels per walk over the image (one widening load and add
//     per vector and pixel), then ONNX's output stage (onnx_output, i8/output_stage.hpp) with the pool's
//     multiplier x_scale / (y_scale * float(H * W)): saturate(round_half_even(float(acc) * multiplier) +
//     y_zero_point), ties to even as MLAS's. uint8 inputs are widened as int8 and masked to their byte
//     (x & 255 = x); uint8 results come out less 128 and get their top bit flipped.
// The sums wrap in int32 as the reference's.
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/output_stage.hpp>

namespace ctnn::kernel::simd::i8_detail {

// One vector of channels of an 8-bit NHWC pixel (n of them: fewer than lanes only at the channels' end,
// read through a zeroed buffer), as int32 values of the element type.
template <class I, bool Unsigned>
[[gnu::always_inline]] inline typename I::vec widen_8_bit(const std::int8_t* x, int n) {
  const auto v = widen_partial<I>(x, n);
  if constexpr (Unsigned) return I::bit_and(v, I::set1(255));
  else return v;
}

template <kernel_params P, class I>
struct onnx_global_pool_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool unsigned_data = P.type == dtype::u8;
  static constexpr std::int32_t batches = P.in[0], pixels = P.in[1] * P.in[2], channels = P.in[3];
  static constexpr int block = 4;  // vectors of channels summed per walk over the image
  static constexpr bool supports = I::available && P.kind == op_kind::global_avg_pool &&
                                   P.requantization == requantization_policy::onnx && P.in.rank == 4 &&
                                   P.out.rank == 4 && (P.type == dtype::i8 || unsigned_data) &&
                                   P.out_type == P.type && P.out[3] == channels && pixels > 0 && pixels < 0x1000000;
  using stage = onnx_output<P, I>;

  // Vectors whole vectors of channels and Tail more channels (0: none) from `first` on, over the image.
  template <int Vectors, int Tail>
  [[gnu::always_inline]] static inline void pool_block(const std::int8_t* first, std::int8_t* out,
                                                       const typename stage::channel_scale& scale) {
    using vec = typename I::vec;
    constexpr int count = Vectors + (Tail > 0 ? 1 : 0);
    vec acc[count > 0 ? count : 1];
    for (int v = 0; v < count; ++v) acc[v] = I::set1(P.input_offset * pixels);  // input_offset: -x_zero_point
    for (std::int32_t i = 0; i < pixels; ++i, first += channels) {
      for (int v = 0; v < Vectors; ++v) acc[v] = I::add(acc[v], widen_8_bit<I, unsigned_data>(first + v * I::lanes, I::lanes));
      if constexpr (Tail > 0)
        acc[Vectors] = I::add(acc[Vectors], widen_8_bit<I, unsigned_data>(first + Vectors * I::lanes, Tail));
    }
    for (int v = 0; v < Vectors; ++v) store_output<stage, I>(acc[v], scale, out + v * I::lanes, I::lanes);
    if constexpr (Tail > 0) store_output<stage, I>(acc[Vectors], scale, out + Vectors * I::lanes, Tail);
  }

  // Operands: x.
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    constexpr std::int32_t block_channels = block * I::lanes, blocks = channels / block_channels;
    constexpr std::int32_t rest = channels - blocks * block_channels;
    const auto* x = static_cast<const std::int8_t*>(operands[0]);
    auto* y = static_cast<std::int8_t*>(result);
    // As the reference: the multiplier in float, in MLAS's order.
    const float multiplier = std::bit_cast<float>(P.onnx.input_scale_bits) /
                             (std::bit_cast<float>(P.onnx.output_scale_bits) * static_cast<float>(pixels));
    const typename stage::channel_scale scale{I::set1_floats(multiplier)};
    for (std::int32_t b = 0; b < batches; ++b) {
      const std::int8_t* image = x + static_cast<std::ptrdiff_t>(b) * pixels * channels;
      std::int8_t* out = y + static_cast<std::ptrdiff_t>(b) * channels;
      for (std::int32_t k = 0; k < blocks; ++k)
        pool_block<block, 0>(image + k * block_channels, out + k * block_channels, scale);
      if constexpr (rest > 0)
        pool_block<rest / I::lanes, rest % I::lanes>(image + blocks * block_channels, out + blocks * block_channels, scale);
    }
    if constexpr (unsigned_data)
      for (std::int64_t k = 0; k < P.out.elements(); ++k)
        y[k] = static_cast<std::int8_t>(static_cast<std::uint8_t>(y[k]) ^ 0x80u);
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
