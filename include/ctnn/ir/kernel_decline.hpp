#pragma once
// Why a fast kernel family declines a call (the reference kernel then runs it): what pass::select_kernels
// reports under ctnn::require_fast_kernels (a compile error naming the op and the reason) and ctnn-inspect
// --target prints per call. The families give the reason next to `supports` (arm::i8_kernel<P>::declined,
// from kernel/arm/decline.hpp's rules); docs/design.md §4 lists the rules.
#include <cstdint>

#include <ctnn/ir/kernel_params.hpp>

namespace ctnn {

// Each reason but the first four is one condition of a kernel's `supports`, true of the calls it declines
// (kernel/arm/decline.hpp: violates).
enum class kernel_decline : std::uint8_t {
  none,                         // the family runs the call
  family_not_compiled,          // the compiler flags (or CTNN_ARM_REFERENCE_KERNELS) leave the family out
  no_kernel_for_op,             // the family has no kernel for this op kind (and element type)
  other_shape,                  // a condition of the kernel's `supports` that no reason below names
  element_type,                 // an element type the family has no kernel of (float32, uint8 outside ONNX's ops)
  groups_not_1,                 // a grouped convolution
  rank_not_4,                   // an operand not of rank 4 (NHWC)
  weights_offset_not_0,         // int8 weights with a zero point
  fused_activation,             // a fused activation other than ReLU or ReLU6
  depthwise_multiplier_not_1,   // depthwise channel multiplier other than 1
  window_over_256,              // an averaging window of more than 256 values
  window_over_511,              // an int16 depthwise window of more than 511 taps
  add_shift_out_of_range,       // the add/sub recipe's left shift outside [0, 32)
  int16_offset_not_0,           // int16 data with a zero point
  in_place,                     // the call writes over its input (ctnn::in_place_windows)
  width_over_256,               // SVDF input or LSTM feature/cell width over 256 (the stack buffers)
  svdf_state_type,              // an SVDF state neither int16 nor int8
  lstm_form,                    // an LSTM other than TFLM's 8x8_16 (6 operands, 4 gates)
  dilated,                      // a dilated transposed convolution
  requantization_not_tflite,    // ONNX's integer recipe for an op kind the family runs only in TFLite's
  taps_over_255,                // MVE depthwise: more than 255 taps (int16 lane sums)
  window_over_1024_bytes,       // MVE conv: a gathered window of more than 1024 bytes (its stack)
  elements_over_2_31,           // MVE add: 2^31 elements or more
  broadcast,                    // MVE add: operands of different shapes
  scale_ratio_below_2_100,      // MVE QLinearAdd: an input's scale over the result's below 2^-100 (denormals)
};

// The reason in words.
constexpr const char* describe(kernel_decline d) {
  switch (d) {
    case kernel_decline::none: return "runs the call";
    case kernel_decline::family_not_compiled: return "the compiler flags (or CTNN_ARM_REFERENCE_KERNELS) leave the family out";
    case kernel_decline::no_kernel_for_op: return "no kernel of the family for this op kind and element type";
    case kernel_decline::other_shape: return "a shape condition of the kernel's supports (see its header)";
    case kernel_decline::element_type: return "an element type the family has no kernel of";
    case kernel_decline::groups_not_1: return "a grouped convolution (groups other than 1)";
    case kernel_decline::rank_not_4: return "an input or output not of rank 4 (NHWC)";
    case kernel_decline::weights_offset_not_0: return "int8 weights with a zero point other than 0";
    case kernel_decline::fused_activation: return "a fused activation other than ReLU or ReLU6";
    case kernel_decline::depthwise_multiplier_not_1: return "depthwise channel multiplier other than 1";
    case kernel_decline::window_over_256: return "an averaging window of more than 256 values";
    case kernel_decline::window_over_511: return "an int16 depthwise window of more than 511 taps";
    case kernel_decline::add_shift_out_of_range: return "the rescaling's left shift outside [0, 32)";
    case kernel_decline::int16_offset_not_0: return "int16 data with a zero point other than 0";
    case kernel_decline::in_place: return "the call writes over its input (in place)";
    case kernel_decline::width_over_256: return "an input or cell width over 256";
    case kernel_decline::svdf_state_type: return "an SVDF state neither int16 nor int8";
    case kernel_decline::lstm_form: return "an LSTM other than TFLM's 8x8_16 form (6 operands, 4 gates)";
    case kernel_decline::dilated: return "a dilated transposed convolution";
    case kernel_decline::requantization_not_tflite: return "ONNX's integer recipe for an op kind run only in TFLite's";
    case kernel_decline::taps_over_255: return "a window of more than 255 taps";
    case kernel_decline::window_over_1024_bytes: return "a gathered window of more than 1024 bytes";
    case kernel_decline::elements_over_2_31: return "2^31 elements or more";
    case kernel_decline::broadcast: return "operands of different shapes (a broadcast)";
    case kernel_decline::scale_ratio_below_2_100: return "an input's scale over the result's below 2^-100";
  }
  return "?";
}

// The number a reason is about, for the messages (the depth multiplier, the groups, the rank...); -1: none.
constexpr std::int64_t decline_value(kernel_decline d, const kernel_params& p) {
  switch (d) {
    case kernel_decline::groups_not_1: return p.groups;
    case kernel_decline::rank_not_4: return p.in.rank != 4 ? p.in.rank : p.out.rank;
    case kernel_decline::weights_offset_not_0: return p.weights_offset;
    case kernel_decline::depthwise_multiplier_not_1: return p.depth_multiplier;
    case kernel_decline::window_over_256:
    case kernel_decline::window_over_511:
    case kernel_decline::taps_over_255:
      return p.kind == op_kind::global_avg_pool && p.in.rank == 4 ? std::int64_t{p.in[1]} * p.in[2]
                                                                  : std::int64_t{p.win.kernel_h} * p.win.kernel_w;
    case kernel_decline::add_shift_out_of_range: return p.left_shift;
    case kernel_decline::in_place: return p.in_place;
    case kernel_decline::elements_over_2_31: return p.out.elements();
    default: return -1;
  }
}

// The name a family goes by in messages and ctnn-inspect.
constexpr const char* family_name(kernel_impl k) {
  switch (k) {
    case kernel_impl::reference: return "reference";
    case kernel_impl::simd_f32: return "xsimd float32";
    case kernel_impl::simd_i8: return "x86 SIMD int8";
    case kernel_impl::arm_dsp_i8: return "Armv7E-M DSP";
    case kernel_impl::shared: return "shared";
    case kernel_impl::undecided: return "undecided";
    case kernel_impl::arm_mve_i8: return "Armv8.1-M MVE";
    case kernel_impl::arm_v6m_i8: return "Armv6-M";
  }
  return "?";
}

}  // namespace ctnn
