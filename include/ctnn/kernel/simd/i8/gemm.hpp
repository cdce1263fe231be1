#pragma once
// int8 conv2d (groups = 1) and dense as one blocked GEMM over output pixels x output channels, bit-exact
// with reference::int8::conv2d / dense.
//
// The input is first copied into a padded buffer in the level's input element (i8/padded_input.hpp): u8
// (x + 128) for vpdpbusd, int16 for pmaddwd. One output pixel then reads `runs` contiguous stretches of
// that buffer at compile-time offsets from its first tap: one per kernel row (kernel_w taps side by
// side, dilation_w = 1) or one per tap. Each run is cut into groups of I::group elements; a group past
// the run's end reads whatever follows and meets zero weights.
//
// Weights are re-laid out at compile time (pack<1>): words[((run * groups_per_run + g) * channel_vectors
// + v) * lanes + lane] is group g of that run for output channel v * lanes + lane (zero past the run or
// the channel count). A trailer of channel_vectors * lanes words holds the per-channel correction
// (input_offset - I::input_bias) * sum(w): dot() sees x + input_bias, the reference (x + input_offset).
// Padding reads the input zero point (x = -input_offset), which adds (x + input_offset) * w = 0, as the
// reference's skipped taps do.
//
// Register blocking: `pixel_block` pixels x `vector_block` channel vectors of int32 accumulators, the
// pixels of a block evenly spaced in the buffer (along one output row; along all pixels for dense and
// unpadded 1x1 stride-1 convs), so that every input word is a broadcast at a constant offset from one
// pointer. The last block of a row moves back to end at the row's last pixel (recomputing a few pixels,
// which writes the same bytes: the input was copied first). The accumulators start from the correction
// plus the bias; a block holding all channels in whole vectors narrows and stores four output vectors at
// once (store_output_four).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/gemm_walk.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/output_stage.hpp>
#include <ctnn/kernel/simd/i8/padded_input.hpp>

namespace ctnn::kernel::simd::i8_detail {

// Stage: the output stage (i8/output_stage.hpp), TFLite's unless the call follows ONNX (i8/onnx_conv.hpp).
template <kernel_params P, class I, class Stage = tflite_output<P, I>>
struct gemm_kernel {
  using walk = gemm_walk<P, I::lanes, I::registers, I::group>;
  using element = typename I::input_element;
  static constexpr std::size_t packed_words = walk::weight_words + static_cast<std::size_t>(walk::channel_vectors) * I::lanes;
  // Whether a block's outputs are consecutive bytes in groups of four vectors (all channels in one block
  // of whole vectors): store_output_four then narrows and stores four vectors at once.
  static constexpr bool stores_four =
      walk::vector_block == walk::channel_vectors && walk::out_c == walk::channel_vectors * I::lanes && walk::pixel_block * walk::vector_block % 4 == 0;

  static constexpr bool supports =
      I::available && (P.kind == op_kind::conv2d || P.kind == op_kind::dense) && P.weights_offset == 0 &&
      (P.kind != op_kind::conv2d || (P.groups == 1 && P.in.rank == 4 && P.out.rank == 4)) &&
      kernel::detail::is_output_clamp(P.fused) && walk::geometry::valid &&
      walk::geometry::elements * static_cast<std::int64_t>(sizeof(element)) <= max_padded_bytes && walk::pixel_block >= 1;

  static constexpr bool packs(std::size_t k) { return k == 1; }
  using vec = typename I::vec;
  // Each scale serves every block of pixels (once only in a single-row dense layer).
  using scale = typename Stage::template scale<(walk::pixels > 1)>;

  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, packed_words> pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the int8 GEMM kernel packs its weights only.");
    std::array<std::int32_t, packed_words> words{};
    for (std::int32_t oc = 0; oc < walk::out_c; ++oc) {
      const auto slot = static_cast<std::size_t>(oc / I::lanes) * I::lanes + static_cast<std::size_t>(oc % I::lanes);
      std::int32_t sum = 0;
      // The filter is OHWI, so run `run` (kernel row ky, or tap (ky, kx)) is elements
      // [run * run_elements, (run + 1) * run_elements) of the output channel's row: few constant-evaluation
      // steps per weight (clang's limit is about a million per packed operand).
      std::size_t at = static_cast<std::size_t>(oc) * static_cast<std::size_t>(walk::reduction);
      std::size_t to = slot;
      for (std::int32_t run = 0; run < walk::runs; ++run)
        for (std::int32_t g = 0; g < walk::groups_per_run; ++g, to += walk::channel_vectors * I::lanes) {
          std::uint32_t word = 0;
          const std::int32_t count = walk::run_elements - g * I::group < I::group ? walk::run_elements - g * I::group : I::group;
          if (count == 4 && I::group == 4) {  // whole groups in a few statements
            const std::int8_t w0 = read.i8(at), w1 = read.i8(at + 1), w2 = read.i8(at + 2), w3 = read.i8(at + 3);
            word = weight_bits<4>(w0, 0) | weight_bits<4>(w1, 1) | weight_bits<4>(w2, 2) | weight_bits<4>(w3, 3);
            sum += w0 + w1 + w2 + w3;
            at += 4;
          } else if (count == 2 && I::group == 2) {
            const std::int8_t w0 = read.i8(at), w1 = read.i8(at + 1);
            word = weight_bits<2>(w0, 0) | weight_bits<2>(w1, 1);
            sum += w0 + w1;
            at += 2;
          } else {
            for (std::int32_t j = 0; j < count; ++j, ++at) {
              const std::int8_t w = read.i8(at);
              word |= weight_bits<I::group>(w, j);
              sum += w;
            }
          }
          words[to] = static_cast<std::int32_t>(word);
        }
      words[walk::weight_words + slot] = static_cast<std::int32_t>(static_cast<std::uint32_t>(P.input_offset - I::input_bias) *
                                                             static_cast<std::uint32_t>(sum));  // wraps as the accumulator does
    }
    return words;
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, words, bias, output] = kernel::detail::weighted_operands_of<P, std::int32_t>(operands, result);
    compute(input, words, bias, output, rq);
  }

  // The call on its operands (weights packed), the stage's scales read from `source`.
  static void compute(const std::int8_t* input, const std::int32_t* words, const std::int32_t* bias, std::int8_t* output,
                      const typename Stage::source& source) {
    alignas(64) element padded[walk::geometry::elements];
    copy_padded<P>(input, padded, [](std::int8_t x) { return I::prepare(x); });
    // Per channel vector, once per call: the output scale, and the correction plus the bias.
    scale scales[walk::channel_vectors];
    vec offsets[walk::channel_vectors];
    for (std::int32_t v = 0; v < walk::channel_vectors; ++v) {
      const std::int32_t first_channel = v * I::lanes;
      const int n = walk::out_c - first_channel < I::lanes ? walk::out_c - first_channel : I::lanes;
      scales[v] = Stage::template scale_of<(walk::pixels > 1)>(source, [&](int lane) { return lane < n ? first_channel + lane : -1; });
      offsets[v] = I::load(words + walk::weight_words + first_channel);
      if constexpr (P.has_bias != 0) offsets[v] = I::add(offsets[v], load_partial<I>(bias + first_channel, n));
    }

    for (std::int32_t row = 0; row < walk::row_count; ++row) {
      const element* row_input = walk::row_input(padded, row);
      std::int8_t* row_output = output + static_cast<std::ptrdiff_t>(row) * walk::row_pixels * walk::out_c;
      for (std::int32_t first = 0; first < walk::row_pixels; first += walk::pixel_block) {
        const std::int32_t start = first + walk::pixel_block <= walk::row_pixels ? first : walk::row_pixels - walk::pixel_block;
        for (std::int32_t v0 = 0; v0 < walk::channel_vectors; v0 += walk::vector_block)
          block(row_input + start * walk::pixel_step, words, scales, offsets, row_output + static_cast<std::ptrdiff_t>(start) * walk::out_c, v0);
      }
    }
  }

 private:

  // Channel vectors [v0, v0 + vector_block) of the pixel_block pixels whose first taps start at `input`.
  [[gnu::always_inline]] static inline void block(const element* input, const std::int32_t* words,
                                                  const scale (&scales)[walk::channel_vectors],
                                                  const vec (&offsets)[walk::channel_vectors], std::int8_t* out, std::int32_t v0) {
    // Every loop over r and v is unrolled (the pragmas), so that the accumulators stay in registers.
    // The accumulators start from the per-channel correction plus bias.
    vec acc[walk::pixel_block][walk::vector_block];
#pragma GCC unroll 32
    for (std::int32_t r = 0; r < walk::pixel_block; ++r)
#pragma GCC unroll 4
      for (std::int32_t v = 0; v < walk::vector_block; ++v) acc[r][v] = offsets[v0 + v];
    constexpr std::size_t group_stride = static_cast<std::size_t>(walk::channel_vectors) * I::lanes;
    const std::int32_t* group_words = words + static_cast<std::size_t>(v0) * I::lanes;
    for (std::int32_t run = 0; run < walk::runs; ++run) {
      const element* group_input = input + walk::run_offset(run);
      for (std::int32_t g = 0; g < walk::groups_per_run; ++g, group_input += I::group, group_words += group_stride) {
        vec w[walk::vector_block];
#pragma GCC unroll 4
        for (std::int32_t v = 0; v < walk::vector_block; ++v) w[v] = I::load(group_words + v * I::lanes);
#pragma GCC unroll 32
        for (std::int32_t r = 0; r < walk::pixel_block; ++r) {
          const vec x = I::broadcast_word(group_input + r * walk::pixel_step);
#pragma GCC unroll 4
          for (std::int32_t v = 0; v < walk::vector_block; ++v) acc[r][v] = I::dot(acc[r][v], x, w[v]);
        }
      }
    }
    if constexpr (output_stage_out_of_line) requantize_block_out_of_line(acc, scales, out, v0);
    else requantize_block(acc, scales, out, v0);
  }

  [[gnu::noinline]] static void requantize_block_out_of_line(const vec (&acc)[walk::pixel_block][walk::vector_block],
                                                             const scale (&scales)[walk::channel_vectors],
                                                             std::int8_t* out, std::int32_t v0) {
    requantize_block(acc, scales, out, v0);
  }

  // The output stage of a block (i8/isa.hpp, output_stage_out_of_line: where it goes).
  [[gnu::always_inline]] static inline void requantize_block(const vec (&acc)[walk::pixel_block][walk::vector_block],
                                                             const scale (&scales)[walk::channel_vectors],
                                                             std::int8_t* out, std::int32_t v0) {
    if constexpr (stores_four) {
      // Vector k of the block (pixel k / vector_block, channel vector k % vector_block; v0 is 0) goes to
      // out + k * lanes.
#pragma GCC unroll 32
      for (std::int32_t k = 0; k < walk::pixel_block * walk::vector_block; k += 4) {
        vec four[4];
        const scale* four_scales[4];
#pragma GCC unroll 4
        for (std::int32_t j = 0; j < 4; ++j) {
          four[j] = acc[(k + j) / walk::vector_block][(k + j) % walk::vector_block];
          four_scales[j] = &scales[(k + j) % walk::vector_block];
        }
        store_output_four<Stage, I>(four, four_scales, out + k * I::lanes);
      }
    } else {
#pragma GCC unroll 4
      for (std::int32_t v = 0; v < walk::vector_block; ++v) {
        const std::int32_t first_channel = (v0 + v) * I::lanes;
        const int n = walk::out_c - first_channel < I::lanes ? walk::out_c - first_channel : I::lanes;
#pragma GCC unroll 32
        for (std::int32_t r = 0; r < walk::pixel_block; ++r)
          store_output<Stage, I>(acc[r][v], scales[v0 + v], out + r * walk::out_c + first_channel, n);
      }
    }
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
