#pragma once
// float32 transposed conv2d (groups = 1), NHWC, in gather form by stride phase: output column ox reads
// input column ix through tap kx when ox + pad_left - kx * dilation_w = ix * stride_w, so the output columns
// of one phase (ox = phase, phase + stride_w, ...) all see the same taps, each reading consecutive input
// columns. A phase's columns are then the pixels of conv2d's register-blocked product (detail::gemm_block:
// output channels in vector lanes, OHWI weights packed at compile time per block of output channels,
// taps that do not reach the phase skipped); likewise each output row sees a fixed set of input rows. The
// phases and the columns whose taps all lie inside the input are resolved at compile time; the columns
// at the edges are computed one at a time with only the taps that reach them.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/simd/detail/f32_gemm.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct transpose_conv2d {
  static constexpr bool supports = P.kind == op_kind::transpose_conv2d && P.type == dtype::f32 && P.in.rank == 4 &&
                                   P.out.rank == 4 && P.groups == 1 && detail::vector_activation(P.fused);

 private:
  static constexpr nhwc in = nhwc::of(P.in);
  static constexpr nhwc out = nhwc::of(P.out);
  static constexpr window win = P.win;
  static constexpr int taps = win.kernel_h * win.kernel_w;
  static constexpr int phases = win.stride_w;
  // The output columns of a phase (rounded up), the row length of the product.
  static constexpr long phase_columns = (out.w + phases - 1) / phases;
  static constexpr detail::gemm_blocking blocking =
      detail::plan_gemm(out.c, phase_columns, static_cast<long>(taps) * in.c);

  // The column taps of the output columns phase + j * stride_w: kx reaches them when `reaches[kx]`, from
  // input column first_input[kx] + j. Columns j in [interior_begin, interior_end) read inside the input
  // through every tap that reaches them.
  struct phase_plan {
    long columns = 0;
    std::array<bool, static_cast<std::size_t>(win.kernel_w)> reaches{};
    std::array<long, static_cast<std::size_t>(win.kernel_w)> first_input{};
    long interior_begin = 0, interior_end = 0;
  };
  static constexpr phase_plan plan_phase(int phase) {
    phase_plan plan{};
    plan.columns = phase < out.w ? (out.w - phase + phases - 1) / phases : 0;
    long begin = 0, end = plan.columns;
    for (int kx = 0; kx < win.kernel_w; ++kx) {
      const long reach = static_cast<long>(phase) + win.pad_left - static_cast<long>(kx) * win.dilation_w;
      const auto k = static_cast<std::size_t>(kx);
      plan.reaches[k] = (reach % phases + phases) % phases == 0;
      if (!plan.reaches[k]) continue;
      plan.first_input[k] = reach / phases;  // exact
      begin = -plan.first_input[k] > begin ? -plan.first_input[k] : begin;
      end = in.w - plan.first_input[k] < end ? in.w - plan.first_input[k] : end;
    }
    plan.interior_begin = begin < plan.columns ? begin : plan.columns;
    plan.interior_end = end < plan.interior_begin ? plan.interior_begin : end;
    return plan;
  }
  template <int Phase>
  static constexpr phase_plan plan_of = plan_phase(Phase);

 public:
  static constexpr bool packs(std::size_t k) { return k == 1 || k == 2; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader& read) {
    if constexpr (K == 1) return detail::pack_gemm_weights<out.c, taps, in.c, blocking>(read);
    else return detail::pack_gemm_bias<out.c, blocking>(read);
  }

  static void run(const float* const* operands, float* result) {
    const float* input = operands[0];
    const float* weights = operands[1];
    const float* bias = P.has_bias ? operands[2] : detail::zero_bias<blocking>.data();
    for (long b = 0; b < out.n; ++b)
      for (long oy = 0; oy < out.h; ++oy) {
        // The input rows the window's rows reach from output row oy (nullptr: none).
        const float* tap_rows[win.kernel_h];
        for (int ky = 0; ky < win.kernel_h; ++ky) {
          const long reach = oy + win.pad_top - static_cast<long>(ky) * win.dilation_h;
          const long iy = reach / win.stride_h;
          tap_rows[ky] = reach >= 0 && reach % win.stride_h == 0 && iy < in.h ? input + (b * in.h + iy) * in.w * in.c : nullptr;
        }
        float* out_row = result + (b * out.h + oy) * out.w * out.c;
        [&]<int... Phase>(std::integer_sequence<int, Phase...>) {
          (run_phase<Phase>(tap_rows, weights, bias, out_row), ...);
        }(std::make_integer_sequence<int, phases>{});
      }
  }

 private:
  template <int Phase>
  static void run_phase(const float* const* tap_rows, const float* weights, const float* bias, float* out_row) {
    constexpr phase_plan plan = plan_of<Phase>;
    float* phase_out = out_row + static_cast<long>(Phase) * out.c;
    for (long j = 0; j < plan.interior_begin; ++j) edge_column<Phase>(tap_rows, j, weights, bias, phase_out);
    constexpr int block_pixels = blocking.pixels_per_block;
    constexpr long interior = plan.interior_end - plan.interior_begin;
    long j = plan.interior_begin;
    for (; j + block_pixels <= plan.interior_end; j += block_pixels)
      interior_block<Phase, block_pixels>(tap_rows, j, weights, bias, phase_out);
    if constexpr (interior % block_pixels != 0)
      interior_block<Phase, static_cast<int>(interior % block_pixels)>(tap_rows, j, weights, bias, phase_out);
    for (j = plan.interior_end; j < plan.columns; ++j) edge_column<Phase>(tap_rows, j, weights, bias, phase_out);
  }

  // R consecutive columns of a phase from j on, every reaching tap inside the input.
  template <int Phase, int R>
  static void interior_block(const float* const* tap_rows, long j, const float* weights, const float* bias, float* phase_out) {
    columns<Phase, R, false>(tap_rows, j, weights, bias, phase_out);
  }
  // Column j of a phase alone, with the taps that reach it inside the input.
  template <int Phase>
  static void edge_column(const float* const* tap_rows, long j, const float* weights, const float* bias, float* phase_out) {
    columns<Phase, 1, true>(tap_rows, j, weights, bias, phase_out);
  }

  template <int Phase, int R, bool CheckColumns>
  static void columns(const float* const* tap_rows, long j, const float* weights, const float* bias, float* phase_out) {
    constexpr phase_plan plan = plan_of<Phase>;
    const float* tap_base[taps];
    for (int t = 0; t < taps; ++t) {
      const float* row = tap_rows[t / win.kernel_w];
      const auto kx = static_cast<std::size_t>(t % win.kernel_w);
      const long ix = plan.first_input[kx] + j;
      const bool inside = !CheckColumns || (ix >= 0 && ix < in.w);
      tap_base[t] = row != nullptr && plan.reaches[kx] && inside ? row + ix * in.c : nullptr;
    }
    detail::gemm_blocks<R, blocking, in.c, taps, in.c, phases * out.c, out.c, P.fused>(
        tap_base, weights, bias, phase_out + j * phases * out.c, R);
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
