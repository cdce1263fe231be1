#pragma once
// ONNX's integer conv2d and dense (kernel_params::requantization == onnx: QLinearConv, QLinearMatMul and the
// QDQ groups lowered to them) on the Armv7E-M DSP int8 kernels (conv.hpp, depthwise.hpp), bit-exact with
// kernel::reference::onnx_quant. The call is restated as the int8 call in ctnn's layouts that computes the
// same accumulators (kernel/detail/onnx_call_shape.hpp), with ONNX's output stage (detail/requantize.hpp:
// float(acc) * multiplier on the FPU, VCVTR's round to nearest even, saturated). Re-laid out at compile
// time (kernel::pack_operand): the weights (OIHW or [K, N] -> OHWI, 1HWC or [out][in]), the bias (int32,
// which an ONNX file may store unaligned), and per-channel multipliers float(x_scale * w_scale) / y_scale,
// computed as the reference computes them, as float bits (the inner kernel's requant_arrays::multiplier).
// A uint8 input is copied into the call's scratch with its top bit flipped (int8, its zero point moved by
// 128; kernel/scratch.hpp's rule onnx_input_scratch, onnx_scratch.hpp, asks for it); a uint8 result is written as int8 with its
// zero point moved by -128 and flipped in place.
//
// Without scratch (the planner gives none where the input's buffer is in the pools: memory::scratch_made_in_place)
// a uint8 input is made int8 in place, and uint8 again after the call where a later call reads it
// (kernel_params::input_restored). In place (kernel_params::in_place:
// the result placed over the dying input, memory/in_place_window.hpp) the inner kernel's walk keeps the result
// behind the input it has not read.
//
// Supported: NHWC convolutions (layout onnx_nhwc: the importer holds integer activations in NHWC), NCHW ones
// whose images are single pixels (a QDQ Gemm's 1x1 conv: the same bytes in either layout), dense; within
// what onnx_call_shape maps and the inner kernel takes. The rest keeps the reference kernels.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/conv.hpp>
#include <ctnn/kernel/arm/depthwise.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/onnx_scratch.hpp>
#include <ctnn/kernel/detail/onnx_call_shape.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

// The bytes of Count 8-bit values with their top bit flipped (uint8 <-> int8 minus 128), a word at a time.
template <std::int64_t Count>
inline void flip_top_bits(const void* from, void* to) {
  const auto* in = static_cast<const unsigned char*>(from);
  auto* out = static_cast<unsigned char*>(to);
  for (std::int64_t w = 0; w < Count / 4; ++w) {
    std::uint32_t word = 0;
    std::memcpy(&word, in + 4 * w, 4);
    word ^= 0x80808080u;
    std::memcpy(out + 4 * w, &word, 4);
  }
  for (std::int64_t i = Count / 4 * 4; i < Count; ++i) out[i] = static_cast<unsigned char>(in[i] ^ 0x80u);
}

// The Armv7E-M DSP family's int8 kernels that run the restated calls (conv.hpp, depthwise.hpp).
template <kernel_params Q>
struct dsp_int8_kernels {
  using conv = conv_kernel<Q>;  // also dense
  using depthwise = depthwise_kernel<Q>;
};

// Inner: a family's int8 kernels for the restated call (its `conv` and `depthwise`, taking requantization
// onnx): the DSP family's here, the MVE family's in kernel/arm/mve/onnx_conv.hpp.
template <kernel_params P, template <kernel_params> class Inner = dsp_int8_kernels>
struct onnx_conv_kernel {
  using shape = kernel::detail::onnx_call_shape<P>;
  static constexpr kernel_params restated() {
    kernel_params q = shape::inner_params();
    q.requantization = requantization_policy::onnx;
    q.onnx.multiplier_bits = P.onnx.multiplier_bits;
    q.output_offset = P.output_offset - (shape::unsigned_output ? 128 : 0);
    // A result placed over its dying input (kernel_params::in_place): the inner kernel walks pixel-major
    // over it (a uint8 input made int8 in place, run without scratch; in the scratch, the walk is merely safe).
    q.in_place = P.in_place;
    return q;
  }
  static constexpr kernel_params inner_p = restated();
  using inner = std::conditional_t<shape::is_depthwise, typename Inner<inner_p>::depthwise, typename Inner<inner_p>::conv>;
  // The inner call reads the activations' bytes as they are: NHWC, dense, or NCHW images of one pixel.
  static constexpr bool same_bytes = shape::is_dense || shape::is_nhwc ||
                                     (P.in.rank == 4 && P.out.rank == 4 && P.in[2] == 1 && P.in[3] == 1 && P.out[2] == 1 && P.out[3] == 1);
  static constexpr std::int32_t channels = shape::mapped ? inner_p.out.last() : 0;
  static constexpr std::int64_t in_elements = P.in.elements(), out_elements = P.out.elements();
  static constexpr bool per_channel = P.onnx.scale_count > 1;

  static constexpr bool check() {
    if constexpr (!dsp_available || !shape::mapped || !same_bytes) return false;
    else return inner::supports;
  }
  static constexpr bool supports = check();
  // The scratch a call needs (kernel/scratch.hpp): a uint8 input made int8.
  static constexpr std::int32_t scratch_bytes = supports && shape::unsigned_input ? static_cast<std::int32_t>(in_elements) : 0;

  static constexpr std::size_t weight_count() {
    const auto taps = static_cast<std::size_t>(inner_p.win.kernel_h) * static_cast<std::size_t>(inner_p.win.kernel_w);
    if constexpr (shape::is_dense) return static_cast<std::size_t>(inner_p.in.last()) * static_cast<std::size_t>(channels);
    else if constexpr (shape::is_depthwise) return taps * static_cast<std::size_t>(channels);
    else return taps * static_cast<std::size_t>(inner_p.in.last()) * static_cast<std::size_t>(channels);
  }

  // The stored weights read in the inner call's order (OHWI, 1HWC or [out][in]).
  template <class Reader>
  struct inner_order {
    const Reader& read;
    constexpr std::int8_t i8(std::size_t i) const { return read.i8(shape::onnx_weight_index(i)); }
  };
  // Whether the inner kernel re-lays out its weights itself (conv.hpp's one-row dense layers): then it packs
  // them from the inner order.
  static constexpr bool inner_packs_weights = [] {
    if constexpr (requires { inner::packs(std::size_t{1}); }) return inner::packs(1);
    else return false;
  }();

  // Weights (1), bias (2), per-channel weight scales as multipliers (3).
  static constexpr bool packs(std::size_t k) { return k == 1 || (k == 2 && P.has_bias != 0) || (k == 3 && per_channel); }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader& read) {
    static_assert(K >= 1 && K <= 3, "ctnn: the ONNX integer convolution kernels pack their weights, bias and weight scales only.");
    if constexpr (K == 1 && inner_packs_weights) {
      return inner::template pack<1>(inner_order<Reader>{read});
    } else if constexpr (K == 1) {
      std::array<std::int8_t, weight_count()> weights{};
      for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = read.i8(shape::onnx_weight_index(i));
      return weights;
    } else if constexpr (K == 2) {
      std::array<std::int32_t, static_cast<std::size_t>(channels)> bias{};
      for (std::size_t o = 0; o < bias.size(); ++o) bias[o] = read.i32(o);
      return bias;
    } else {  // as reference::onnx_quant's multiplier_of
      const float input_scale = std::bit_cast<float>(P.onnx.input_scale_bits);
      const float output_scale = std::bit_cast<float>(P.onnx.output_scale_bits);
      std::array<std::int32_t, static_cast<std::size_t>(channels)> multipliers{};
      for (std::size_t o = 0; o < multipliers.size(); ++o)
        multipliers[o] = std::bit_cast<std::int32_t>(reference::onnx_quant::output_multiplier(input_scale, read.f32(o), output_scale));
      return multipliers;
    }
  }

  // Operands: x, packed w, packed bias, packed multipliers, w_zero_point (unused: zero).
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq, void* scratch) {
    static_assert(N >= 2, "ctnn: an ONNX integer convolution reads x and w.");
    const void* input = operands[0];
    if constexpr (shape::unsigned_input) {
      flip_top_bits<in_elements>(operands[0], scratch);
      input = scratch;
    } else {
      (void)scratch;
    }
    run_inner(input, operands, result, rq);
  }

  // Without scratch: a uint8 input's buffer is in the pools (the planner's condition), so it is made int8 where it
  // is, and uint8 again after the inner call where a later call reads it (kernel_params::input_restored; never in
  // place: the result then lies over a dying input).
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    if constexpr (shape::unsigned_input) {
      void* input = const_cast<void*>(operands[0]);  // NOLINT: the input's bytes in the pools (see above)
      flip_top_bits<in_elements>(input, input);
      run_inner(input, operands, result, rq);
      if constexpr (P.input_restored != 0 && P.in_place == 0) flip_top_bits<in_elements>(input, input);
    } else {
      run_inner(operands[0], operands, result, rq);
    }
  }

 private:
  // The inner call on `input` (int8), the other operands as given.
  template <std::size_t N>
  static void run_inner(const void* input, const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const void* const inner_operands[3] = {input, operands[1], P.has_bias != 0 ? operands[N > 2 ? 2 : 0] : nullptr};
    requant_arrays multipliers = rq;
    if constexpr (per_channel) multipliers.multiplier = static_cast<const std::int32_t*>(operands[N > 3 ? 3 : 0]);
    inner::run(inner_operands, result, multipliers);
    if constexpr (shape::unsigned_output) flip_top_bits<out_elements>(result, result);
  }
};

}  // namespace ctnn::kernel::arm::detail
