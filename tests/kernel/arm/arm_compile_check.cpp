// Compiled for arm-none-eabi (Cortex-M4, -fno-exceptions -fno-rtti, newlib) by the test
// kernels_int8_arm_none_eabi (arm_compile_check.cmake): every int8 kernel, instantiated with the
// kernel_params of real layers (the MLPerf Tiny KWS and IC models) and of small hand-made ones, must
// compile there and pull in no heap allocation and no exception machinery.
#include <cstdint>
#include <utility>

#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/pass/select_kernels.hpp>

#include "kernel/int8_test_support.hpp"
#include "kernel/mlperf_layers.inc"

namespace {

using ctnn::make_shape;
using ctnn::op_kind;
using int8_test::bits;
using mlperf::layer;

constexpr layer simple(op_kind kind, ctnn::dtype in_type = ctnn::dtype::i8, ctnn::dtype out_type = ctnn::dtype::i8) {
  layer l{};
  l.kind = kind;
  l.in = make_shape(1, 4, 4, 6);
  l.in2 = l.in;
  l.in_scale = l.in2_scale = l.out_scale = bits(0.05f);
  l.in_zero_point = l.out_zero_point = kind == op_kind::sigmoid || kind == op_kind::softmax ? -128 : 0;
  l.in_type = in_type, l.out_type = out_type;
  l.reduce_axes = 0b0110;
  l.axis = 3;
  l.pads = {0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0};
  if (kind == op_kind::max_pool) l.kernel_h = l.kernel_w = 2, l.stride_h = l.stride_w = 2;
  return l;
}
inline constexpr layer others[] = {simple(op_kind::sigmoid),  simple(op_kind::tanh),     simple(op_kind::softmax),
                                   simple(op_kind::mean),     simple(op_kind::mul),      simple(op_kind::relu),
                                   simple(op_kind::relu6),    simple(op_kind::concat),   simple(op_kind::pad),
                                   simple(op_kind::max_pool), simple(op_kind::quantize, ctnn::dtype::f32),
                                   simple(op_kind::quantize), simple(op_kind::dequantize, ctnn::dtype::i8, ctnn::dtype::f32)};

template <const auto& Table, std::size_t... I>
void run_all(const void* const (&operands)[4], void* out, const ctnn::kernel::requant_arrays& rq, std::index_sequence<I...>) {
  // Each layer by the kernel select_kernels chooses for the build's target (the DSP kernels on a Cortex-M4).
  (ctnn::kernel::invoke<ctnn::pass::with_kernel_choice<int8_test::layer_params<Table, I>()>>(operands, out, rq), ...);
}

}  // namespace

extern "C" void ctnn_int8_kernels(const void* const* operands, void* out, const std::int32_t* multiplier, const std::int32_t* shift) {
  const void* const ops[4] = {operands[0], operands[1], operands[2], nullptr};
  const ctnn::kernel::requant_arrays rq{multiplier, shift, nullptr, nullptr, nullptr};
  run_all<mlperf::kws_ref_model_layers>(ops, out, rq, std::make_index_sequence<std::size(mlperf::kws_ref_model_layers)>{});
  run_all<mlperf::pretrainedResnet_quant_layers>(ops, out, rq, std::make_index_sequence<std::size(mlperf::pretrainedResnet_quant_layers)>{});
  run_all<others>(ops, out, rq, std::make_index_sequence<std::size(others)>{});
}
