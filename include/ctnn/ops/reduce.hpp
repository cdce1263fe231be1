#pragma once
// The reductions besides mean (ops/mean.hpp), one descriptor each over reduction_base's axes and shape
// rule: reduce_sum, reduce_max, reduce_min (float32 and int8, TFLM's SUM, REDUCE_MAX, REDUCE_MIN), and
// ONNX's float32 ReduceProd, ReduceSumSquare, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp; arg_max and arg_min (float32 and int8 in,
// int32 or int64 out). Kernels: kernel/reference/reduce.hpp.
#include <bit>
#include <cstdint>

#include <ctnn/kernel/reference/int8/mean.hpp>
#include <ctnn/kernel/reference/reduce.hpp>
#include <ctnn/ops/reduction.hpp>

namespace ctnn::ops {

// A float32 reduction of kind K accumulated by Rule (kernel::reference::reduction_rule).
template <op_kind K, template <class> class Rule>
struct float_reduction : reduction_base {
  static constexpr op_kind kind = K;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::reduce<Rule>(p, operands[0], result);
  }
};

// TFLM's SUM: int8 and int16 sums rescaled by input scale / output scale (PrepareMeanOrSumHelper's
// QuantizeMultiplier of the ratio in double).
struct reduce_sum : float_reduction<op_kind::reduce_sum, kernel::reference::reduction_rule::sum> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8 || type == dtype::i16; }
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     static_cast<double>(q.in.scale) / static_cast<double>(q.out.scale));
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::sum(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    });
  }
};

// TFLM's REDUCE_MAX and REDUCE_MIN: int8 compares the raw values, input and output quantized alike (the
// TFLite importer refuses other int8 models, as TFLM's Eval does); the multiplier is unused.
template <op_kind K, template <class> class Rule>
struct int8_extremum : float_reduction<K, Rule> {
  static constexpr bool int8_result_is_an_input_value = true;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::reduce<Rule>(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

struct reduce_max : int8_extremum<op_kind::reduce_max, kernel::reference::reduction_rule::maximum> {};
struct reduce_min : int8_extremum<op_kind::reduce_min, kernel::reference::reduction_rule::minimum> {};
struct reduce_prod : float_reduction<op_kind::reduce_prod, kernel::reference::reduction_rule::product> {};
struct reduce_sum_square : float_reduction<op_kind::reduce_sum_square, kernel::reference::reduction_rule::sum_square> {};
struct reduce_l1 : float_reduction<op_kind::reduce_l1, kernel::reference::reduction_rule::l1> {};
struct reduce_l2 : float_reduction<op_kind::reduce_l2, kernel::reference::reduction_rule::l2> {};
struct reduce_log_sum : float_reduction<op_kind::reduce_log_sum, kernel::reference::reduction_rule::log_sum> {};
struct reduce_log_sum_exp : float_reduction<op_kind::reduce_log_sum_exp, kernel::reference::reduction_rule::log_sum_exp> {};

// arg_max, arg_min: one reduced axis; the result's element type is attrs.out_type (int32 or int64), which
// the kernels write through the untyped result. They compare raw values, so an int8 input's scale and
// zero point do not matter (TFLM's ArgMinMax on int8).
template <op_kind K, bool Largest>
struct arg_extremum : reduction_base {
  static constexpr op_kind kind = K;
  static constexpr bool result_type_from_attributes = true;
  static constexpr bool plain_integer_kernel = true;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }
  // As every reduction's, for exactly one axis and an integer result (the importers set both).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const bool integer_result = n.attrs.out_type == dtype::i32 || n.attrs.out_type == dtype::i64;
    if (std::popcount(n.attrs.mean.reduce_axes) != 1 || !integer_result)
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in,
              {.axis = static_cast<std::int64_t>(n.attrs.mean.reduce_axes), .rank_actual = in.rank}});
    return reduction_base::infer(m, node_id);
  }
  template <class T, class Params>
  [[gnu::always_inline]] static void run(Params p, const T* input, void* result) {
    if (p->out_type == dtype::i64)
      kernel::reference::arg_extremum<Largest>(p, input, static_cast<std::int64_t*>(result));
    else
      kernel::reference::arg_extremum<Largest>(p, input, static_cast<std::int32_t*>(result));
  }
  template <class Params>
  [[gnu::always_inline]] static void run_f32(Params p, const float* const* operands, float* result) {
    run(p, operands[0], static_cast<void*>(result));
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    run(p, static_cast<const std::int8_t*>(operands[0]), result);
  }
  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op& op) {
    reduction_base::put_attributes(w, a, op);
    w.put(a.mean.select_last != 0 ? " select_last" : "");
  }
};

struct arg_max : arg_extremum<op_kind::arg_max, true> {};
struct arg_min : arg_extremum<op_kind::arg_min, false> {};

}  // namespace ctnn::ops
