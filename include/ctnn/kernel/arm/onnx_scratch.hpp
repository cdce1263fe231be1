#pragma once
// The scratch of the Armv7E-M DSP kernels of ONNX's integer convolutions (kernel/arm/onnx_conv.hpp): a
// uint8 input made int8. A rule of kernel/scratch.hpp's list, kept apart from the kernels so that lowering
// reads it without them.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>

namespace ctnn::kernel::arm {

// The planner places none where the input's buffer is in the pools (memory::scratch_made_in_place): the kernel
// then makes that input int8 in place (and uint8 again afterwards where a later call reads it).
//
// kernel/scratch.hpp's rule for these kernels, from a call's parameters at run time as at compile time: the
// conditions of onnx_call_shape and same_bytes above (the inner kernel's own are not repeated: where it
// declines, the reference kernel runs and the scratch stays unused).
struct onnx_input_scratch {
  static constexpr std::int32_t bytes(const kernel_params& p) {
    const bool eight_bit_result = p.out_type == dtype::u8 || p.out_type == dtype::i8;
    const bool nhwc = p.onnx.layout == data_layout::onnx_nhwc;
    const std::int32_t channel_dim = nhwc ? 3 : 1;
    const bool mapped_kind =
        p.kind == op_kind::dense ||
        (p.kind == op_kind::conv2d && p.in.rank == 4 && p.out.rank == 4 &&
         (p.groups == 1 || (p.groups == p.in[channel_dim] && p.groups == p.out[channel_dim])) &&
         (nhwc || (p.in[2] == 1 && p.in[3] == 1 && p.out[2] == 1 && p.out[3] == 1)));
    if (!detail::dsp_available || p.requantization != requantization_policy::onnx || p.type != dtype::u8 || !eight_bit_result ||
        !mapped_kind || p.onnx.weights_type != dtype::i8 || p.weights_offset != 0 || p.onnx.zero_point_count > 1 ||
        p.onnx.scale_count < 1)
      return 0;
    return static_cast<std::int32_t>(p.in.elements());
  }
};

}  // namespace ctnn::kernel::arm
