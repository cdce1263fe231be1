#pragma once
// TFLite's 16x8 conv2d (groups = 1) and dense (int16 data, int8 weights, an int64 bias, zero points 0) as one
// blocked GEMM over output pixels x output channels, bit-exact with the reference kernels
// (reference/conv2d.hpp, reference/int8/dense.hpp: TFLM's int64 sums and int64 MultiplyByQuantizedMultiplier).
//
// The int8 GEMM's walk (i8/gemm.hpp) with int16 pairs: the input is copied into a padded int16 buffer (zeros:
// the zero point is 0), a reduction group is two consecutive int16 inputs (one 32-bit word to broadcast), the
// weights are re-laid out at compile time as int16 pairs (pack<1>: the same word order as the int8 GEMM's, no
// correction trailer), and dot_words() (vpdpwssd, or pmaddwd and an add) adds both products to each int32 lane.
//
// Sums: a product is at most 32768 * 128 = 2^22 in magnitude, so windows of up to 511 products add up exactly
// in int32 lanes, where TFLM sums in int64; longer windows keep the reference kernel. The output stage is the
// reference's in int64 lanes (i8/output_stage16.hpp).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/output_stage16.hpp>
#include <ctnn/kernel/simd/i8/padded_input.hpp>

namespace ctnn::kernel::simd::i8_detail {

// The most int16 x int8 products an int32 lane sums exactly (511 * 2^22 < 2^31).
inline constexpr std::int32_t exact_s16_terms = 511;

template <kernel_params P, class I>
struct gemm16_kernel {
  using geometry = window_geometry<P>;
  using vec = typename I::vec;
  static constexpr int lanes = I::lanes;
  static constexpr int group = 2;  // int16 inputs per broadcast word
  static constexpr bool is_dense = geometry::is_dense;
  static constexpr std::int32_t in_c = geometry::channels, out_c = P.out.last();
  static constexpr std::int32_t kernel_h = geometry::kernel_h, kernel_w = geometry::kernel_w;
  static constexpr std::int32_t reduction = kernel_h * kernel_w * in_c;
  static constexpr bool row_runs = geometry::win.dilation_w == 1;
  static constexpr std::int32_t runs = row_runs ? kernel_h : kernel_h * kernel_w;
  static constexpr std::int32_t run_elements = row_runs ? kernel_w * in_c : in_c;
  static constexpr std::int32_t groups_per_run = (run_elements + group - 1) / group;
  static constexpr std::int32_t channel_vectors = (out_c + lanes - 1) / lanes;
  static constexpr std::size_t packed_words = static_cast<std::size_t>(runs) * groups_per_run * channel_vectors * lanes;

  static constexpr bool flat = is_dense || (kernel_h == 1 && kernel_w == 1 && geometry::win.stride_h == 1 &&
                                            geometry::win.stride_w == 1 && !geometry::padded);
  static constexpr std::int32_t pixels = geometry::batch * geometry::out_h * geometry::out_w;
  static constexpr std::int32_t row_count = flat ? 1 : geometry::batch * geometry::out_h;
  static constexpr std::int32_t row_pixels = flat ? pixels : geometry::out_w;
  static constexpr std::ptrdiff_t pixel_step = flat ? in_c : static_cast<std::ptrdiff_t>(geometry::win.stride_w) * in_c;
  static constexpr std::int32_t vector_block = channel_vectors % 4 == 0 ? 4 : channel_vectors % 2 == 0 ? 2 : 1;
  // At most 24 accumulators, as many pixels as the registers allow (the int8 GEMM's rule, i8/gemm.hpp).
  static constexpr std::int32_t pixel_block_max =
      (I::registers - vector_block - 2) / vector_block < 24 / vector_block ? (I::registers - vector_block - 2) / vector_block
                                                                           : 24 / vector_block;
  static constexpr std::int32_t choose_pixel_block() {
    std::int32_t best = 1, best_cost = -1;
    for (std::int32_t p = 1; p <= pixel_block_max && p <= row_pixels; ++p) {
      const std::int32_t cost = (row_pixels + p - 1) / p * (p * vector_block + vector_block + p);
      if (best_cost < 0 || cost <= best_cost) best = p, best_cost = cost;
    }
    return best;
  }
  static constexpr std::int32_t pixel_block = choose_pixel_block();

  static constexpr bool supports =
      I::available && P.type == dtype::i16 && P.out_type == dtype::i16 && P.requantization == requantization_policy::tflite &&
      (P.kind == op_kind::dense || (P.kind == op_kind::conv2d && P.groups == 1 && P.in.rank == 4 && P.out.rank == 4)) &&
      P.input_offset == 0 && P.weights_offset == 0 && P.output_offset == 0 && kernel::detail::is_output_clamp(P.fused) &&
      geometry::valid && reduction <= exact_s16_terms &&
      geometry::elements * static_cast<std::int64_t>(sizeof(std::int16_t)) <= max_padded_bytes && pixel_block >= 1;

  static constexpr bool packs(std::size_t k) { return k == 1; }
  // Where the multipliers come from, as in the reference kernels: a conv2d's always from the call's table
  // (TFLite's per-channel recipe, per-tensor weights broadcast), a dense layer's from it when per-channel.
  static constexpr bool per_channel_table = P.kind == op_kind::conv2d || P.per_channel != 0;

  // words[((run * groups_per_run + g) * channel_vectors + v) * lanes + lane]: inputs 2g, 2g + 1 of that run for
  // output channel v * lanes + lane, as int16 halves (zero past the run or the channel count).
  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, packed_words> pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the 16x8 GEMM kernel packs its weights only.");
    std::array<std::int32_t, packed_words> words{};
    for (std::int32_t oc = 0; oc < out_c; ++oc) {
      const auto slot = static_cast<std::size_t>(oc / lanes) * lanes + static_cast<std::size_t>(oc % lanes);
      std::size_t at = static_cast<std::size_t>(oc) * static_cast<std::size_t>(reduction);  // OHWI rows
      std::size_t to = slot;
      for (std::int32_t run = 0; run < runs; ++run)
        for (std::int32_t g = 0; g < groups_per_run; ++g, to += static_cast<std::size_t>(channel_vectors) * lanes) {
          std::uint32_t word = weight_bits<2>(read.i8(at), 0);
          if (2 * g + 1 < run_elements) word |= weight_bits<2>(read.i8(at + 1), 1);
          at += 2 * g + 1 < run_elements ? 2 : 1;
          words[to] = static_cast<std::int32_t>(word);
        }
    }
    return words;
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto* input = static_cast<const std::int16_t*>(operands[0]);
    const auto* words = static_cast<const std::int32_t*>(operands[N > 1 ? 1 : 0]);
    const std::int64_t* bias = nullptr;
    if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const std::int64_t*>(operands[N > 2 ? 2 : 0]);
    auto* output = static_cast<std::int16_t*>(result);

    alignas(64) std::int16_t padded[geometry::elements];
    copy_padded<P>(input, padded, [](std::int16_t x) { return x; });
    // Each channel vector's output stage, once per call.
    s16_stage<I> stages[channel_vectors];
    for (std::int32_t v = 0; v < channel_vectors; ++v) {
      const auto channel_of = [&](int lane) { return v * lanes + lane < out_c ? v * lanes + lane : -1; };
      const auto bias_of = [&](std::int32_t c) { return P.has_bias != 0 ? bias[c] : std::int64_t{0}; };
      stages[v] = per_channel_table ? s16_stage<I>::of(rq.multiplier, rq.shift, channel_of, bias_of)
                                    : s16_stage<I>::of(&tensor_multiplier, &tensor_shift, [&](int lane) {
                                        return channel_of(lane) < 0 ? -1 : 0;
                                      }, [&](std::int32_t) { return std::int64_t{0}; });
      if (!per_channel_table && P.has_bias != 0)
        for (int lane = 0; lane < lanes; ++lane)
          if (channel_of(lane) >= 0) stages[v].bias[lane] = bias[channel_of(lane)];
    }
    for (std::int32_t row = 0; row < row_count; ++row) {
      const std::int16_t* row_input =
          padded + (flat ? 0 : geometry::pixel_offset(row / geometry::out_h, row % geometry::out_h, 0));
      std::int16_t* row_output = output + static_cast<std::ptrdiff_t>(row) * row_pixels * out_c;
      for (std::int32_t first = 0; first < row_pixels; first += pixel_block) {
        // The last block moves back to end at the row's last pixel (recomputing a few: same bytes).
        const std::int32_t start = first + pixel_block <= row_pixels ? first : row_pixels - pixel_block;
        for (std::int32_t v0 = 0; v0 < channel_vectors; v0 += vector_block)
          block(row_input + start * pixel_step, words, stages, row_output + static_cast<std::ptrdiff_t>(start) * out_c, v0);
      }
    }
  }

 private:
  static constexpr std::ptrdiff_t run_offset(std::int32_t run) {
    return row_runs ? geometry::tap_offset(run, 0) : geometry::tap_offset(run / kernel_w, run % kernel_w);
  }

  // Channel vectors [v0, v0 + vector_block) of the pixel_block pixels whose first taps start at `input`.
  [[gnu::always_inline]] static inline void block(const std::int16_t* input, const std::int32_t* words,
                                                  const s16_stage<I> (&stages)[channel_vectors], std::int16_t* out,
                                                  std::int32_t v0) {
    vec acc[pixel_block][vector_block];
#pragma GCC unroll 32
    for (std::int32_t r = 0; r < pixel_block; ++r)
#pragma GCC unroll 4
      for (std::int32_t v = 0; v < vector_block; ++v) acc[r][v] = I::zero();
    constexpr std::size_t group_stride = static_cast<std::size_t>(channel_vectors) * lanes;
    const std::int32_t* group_words = words + static_cast<std::size_t>(v0) * lanes;
    for (std::int32_t run = 0; run < runs; ++run) {
      const std::int16_t* group_input = input + run_offset(run);
      for (std::int32_t g = 0; g < groups_per_run; ++g, group_input += group, group_words += group_stride) {
        vec w[vector_block];
#pragma GCC unroll 4
        for (std::int32_t v = 0; v < vector_block; ++v) w[v] = I::load(group_words + v * lanes);
#pragma GCC unroll 32
        for (std::int32_t r = 0; r < pixel_block; ++r) {
          const vec x = I::broadcast_word(group_input + r * pixel_step);
#pragma GCC unroll 4
          for (std::int32_t v = 0; v < vector_block; ++v) acc[r][v] = I::dot_words(acc[r][v], x, w[v]);
        }
      }
    }
    store_block(acc, stages, out, v0);
  }

  // The output stage of every output of a block (out of line: the accumulation loop keeps the registers).
  [[gnu::noinline]] static void store_block(const vec (&acc)[pixel_block][vector_block],
                                            const s16_stage<I> (&stages)[channel_vectors], std::int16_t* out, std::int32_t v0) {
    for (std::int32_t v = 0; v < vector_block; ++v) {
      const std::int32_t first_channel = (v0 + v) * lanes;
      const int n = out_c - first_channel < lanes ? out_c - first_channel : lanes;
      for (std::int32_t r = 0; r < pixel_block; ++r)
        store_s16<I, P.activation_min, P.activation_max>(acc[r][v], stages[v0 + v], out + r * out_c + first_channel, n);
    }
  }

  static constexpr std::int32_t tensor_multiplier = P.output_multiplier, tensor_shift = P.output_shift;
};

}  // namespace ctnn::kernel::simd::i8_detail
